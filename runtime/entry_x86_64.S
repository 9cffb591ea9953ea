/*
 * entry_x86_64.S - the doors through which the GCC plugin's x86-64
 * emission reaches cw_iter_begin_v2 and cw_iter_end_v2.
 *
 * The plugin emits each iteration's test as one `asm` (see abi.h), so that
 * GCC's optimizers carry one opaque statement instead of the blocks of a
 * test and a call. Such an asm may not `call`: that would push into the
 * red zone of the function around it and leave its stack unaligned. It
 * jumps here instead, the loop in %rax and its return address in %r11, and
 * gets back with every register as it was except %rax (cw_iter_begin_v2's
 * result, and ZF set iff it is 0), %r11, the other flags and, with
 * AVX-512, the mask registers (the asm declares those clobbered).
 *
 * One door per hook and instruction set the calling code may use: _sse
 * saves %xmm0-15, _avx %ymm0-15, _avx512 %zmm0-31; the plugin picks the
 * one that matches the function it instruments. Each also saves the x87
 * registers when they hold values (long double code; the runtime may call
 * code that expects them empty, as at any call). The frame is an ordinary
 * %rbp frame with its CFI, so debuggers and sampling profilers unwind from
 * the runtime through it into the instrumented function.
 */
#if defined(__x86_64__) && defined(__ELF__) && defined(__LP64__)

	.text

/* Moves the first COUNT vector registers REG0.. to (SAVE=1) or from the
   stack, SIZE bytes each, with INSN. */
.macro cw_vectors save, insn, reg, size, count
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.if \r < \count
	.if \save
	\insn %\reg\r, \r*\size(%rsp)
	.else
	\insn \r*\size(%rsp), %\reg\r
	.endif
	.endif
	.endr
.endm

/* NAME: save, call HOOK (%rax as its argument), restore, jump to %r11;
   the vector registers: COUNT of REG, SIZE bytes each, moved with INSN. */
.macro cw_door name, hook, insn, reg, size, count
	.globl \name
	.type \name, @function
	.p2align 4
\name:
	.cfi_startproc
	/* The caller's %rsp is unchanged (CFA + 0); its resume address is in
	   %r11. */
	.cfi_def_cfa %rsp, 0
	.cfi_register %rip, %r11
	endbr64
	leaq -136(%rsp), %rsp		/* over the red zone, and a slot */
	.cfi_adjust_cfa_offset 136
	movq %r11, (%rsp)
	.cfi_offset %rip, -136
	pushq %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -144
	movq %rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	andq $-64, %rsp
	subq $(\size * \count + 128), %rsp	/* vectors, x87 state, its flag */
	cw_vectors 1, \insn, \reg, \size, \count
	movq %rax, %rdi
	/* The x87 stack is empty when its top is register 0: a push moves
	   the top to 7, eight pushes back to 0, but GCC keeps no eight
	   values there. (fxam would tell exactly, but takes 136 ns on an
	   empty register on the hosts measured; fnstsw 2 ns.) */
	fnstsw %ax
	testw $0x3800, %ax
	setnz (\size * \count + 112)(%rsp)
	jz 1f
	fnsave (\size * \count)(%rsp)	/* and leaves the stack empty */
1:	call \hook@PLT
	cmpb $0, (\size * \count + 112)(%rsp)
	je 2f
	frstor (\size * \count)(%rsp)
2:	testl %eax, %eax		/* the begin asm resumes on ZF */
	cw_vectors 0, \insn, \reg, \size, \count
	leaq -56(%rbp), %rsp
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbp
	.cfi_def_cfa %rsp, 136
	.cfi_restore %rbp
	movq (%rsp), %r11
	.cfi_register %rip, %r11
	leaq 136(%rsp), %rsp
	.cfi_adjust_cfa_offset -136
	jmp *%r11
	.cfi_endproc
	.size \name, . - \name
.endm

	cw_door cw_iter_begin_v2_x86_64_sse, cw_iter_begin_v2, movaps, xmm, 16, 16
	cw_door cw_iter_end_v2_x86_64_sse, cw_iter_end_v2, movaps, xmm, 16, 16
	cw_door cw_iter_begin_v2_x86_64_avx, cw_iter_begin_v2, vmovaps, ymm, 32, 16
	cw_door cw_iter_end_v2_x86_64_avx, cw_iter_end_v2, vmovaps, ymm, 32, 16
	cw_door cw_iter_begin_v2_x86_64_avx512, cw_iter_begin_v2, vmovaps, zmm, 64, 32
	cw_door cw_iter_end_v2_x86_64_avx512, cw_iter_end_v2, vmovaps, zmm, 64, 32

/* Built with -fcf-protection, say so as GCC does for C objects: the doors
   start with endbr64, return to an endbr64 and keep calls and returns
   paired, so they do not take the runtime's CET marking away. */
#if defined(__CET__)
	.section .note.gnu.property, "a"
	.p2align 3
	.long 4, 16, 5			/* name size, data size, NT_GNU_PROPERTY_TYPE_0 */
	.string "GNU"
	.long 0xc0000002, 4, __CET__	/* GNU_PROPERTY_X86_FEATURE_1_AND: IBT, SHSTK */
	.p2align 3
#endif

#endif

#if defined(__ELF__)
	.section .note.GNU-stack, "", @progbits
#endif
