/* -fplugin-arg-capture_window-all-loops=3:0 is refused with the accepted form.
   (The rewriter has no all-loops mode: it names the argument as unknown.) */
/* { cw-options "-fplugin-arg-capture_window-all-loops=3:0" } */
/* { cw-error-global "bad value '3:0' for '-fplugin-arg-capture_window-all-loops'" only=gcc,clang } */
/* { cw-error-global "unknown argument '-fplugin-arg-capture_window-all-loops=3:0'" only=rewrite } */
void f(int n) { for (int i = 0; i < n; i++) ; }
