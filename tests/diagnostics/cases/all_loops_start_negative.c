/* -fplugin-arg-capture_window-all-loops=-1:2 is refused with the reason and the accepted form.
   (Every front door: the plugins and the rewriter.) */
/* { cw-options "-fplugin-arg-capture_window-all-loops=-1:2" } */
/* { cw-error-global "bad value '-1:2' for '-fplugin-arg-capture_window-all-loops': START must be a decimal number from 0 to 2^62 (expected START:COUNT, e.g. '-fplugin-arg-capture_window-all-loops=0:1')" } */
/* (the rewriter takes all-loops too, among its compiler flags) */
void f(int n) { for (int i = 0; i < n; i++) ; }
