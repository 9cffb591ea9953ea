/* -fplugin-arg-capture_window-all-loops=2:3x is refused with the accepted form.
   (The rewriter has no all-loops mode: it names the argument as unknown.) */
/* { cw-options "-fplugin-arg-capture_window-all-loops=2:3x" } */
/* { cw-error-global "bad value '2:3x' for '-fplugin-arg-capture_window-all-loops'" only=gcc,clang } */
/* { cw-error-global "unknown argument '-fplugin-arg-capture_window-all-loops=2:3x'" only=rewrite } */
void f(int n) { for (int i = 0; i < n; i++) ; }
