/* -fplugin-arg-capture_window-all-loops=-1:2 is refused with the accepted form.
   (The Clang plugin has no all-loops mode yet: it names the argument as unknown.) */
/* { cw-options "-fplugin-arg-capture_window-all-loops=-1:2" } */
/* { cw-error-global "bad value '-1:2' for '-fplugin-arg-capture_window-all-loops'" only=gcc } */
/* { cw-error-global "unknown argument '-fplugin-arg-capture_window-all-loops=-1:2'" only=clang } { cw-error-global "unknown argument '-fplugin-arg-capture_window-all-loops=-1:2'" only=rewrite } */
void f(int n) { for (int i = 0; i < n; i++) ; }
