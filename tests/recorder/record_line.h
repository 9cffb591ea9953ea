/*
 * record_line.h - append one event line to the file named by $CW_RECORD.
 *
 * Shared by the NVTX recorder and the stand-in CUDA driver so that both
 * write into one file in one global order. Every line is
 *
 *   T<tid> <event text>\n
 *
 * written with a single write() on a descriptor opened with O_APPEND, so
 * lines from different threads (and from both libraries) never interleave
 * and their order in the file is the order in which the calls happened.
 * Without $CW_RECORD nothing is written. Each %q{VAR} in $CW_RECORD is
 * replaced by $VAR, so every rank of an MPI launch writes its own file
 * (CW_RECORD=rec.%q{OMPI_COMM_WORLD_RANK}).
 */
#ifndef CW_RECORD_LINE_H
#define CW_RECORD_LINE_H

#if defined(__GNUC__)
#define CW_RECORD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CW_RECORD_PRINTF(f, a)
#endif

/* Format the event text like printf and append "T<tid> text\n". */
void cw_record_line(const char *format, ...) CW_RECORD_PRINTF(1, 2);

#endif /* CW_RECORD_LINE_H */
