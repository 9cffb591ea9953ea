/* -fplugin-arg-capture_window-all-loops=5 is refused with the accepted form.
   (The rewriter has no all-loops mode: it names the argument as unknown.) */
/* { cw-options "-fplugin-arg-capture_window-all-loops=5" } */
/* { cw-error-global "bad value '5' for '-fplugin-arg-capture_window-all-loops' (expected START:COUNT, START from 0 and COUNT from 1 to 4611686018427387904, e.g. '-fplugin-arg-capture_window-all-loops=0:1')" only=gcc,clang } */
/* { cw-error-global "unknown argument '-fplugin-arg-capture_window-all-loops=5'" only=rewrite } */
void f(int n) { for (int i = 0; i < n; i++) ; }
