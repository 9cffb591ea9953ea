/* -fplugin-arg-capture_window-all-loops=5 is refused with the accepted form.
   (Every front door: the plugins and the rewriter.) */
/* { cw-options "-fplugin-arg-capture_window-all-loops=5" } */
/* { cw-error-global "bad value '5' for '-fplugin-arg-capture_window-all-loops' (expected START:COUNT, START from 0 and COUNT from 1 to 4611686018427387904, e.g. '-fplugin-arg-capture_window-all-loops=0:1')" } */
/* (the rewriter takes all-loops too, among its compiler flags) */
void f(int n) { for (int i = 0; i < n; i++) ; }
