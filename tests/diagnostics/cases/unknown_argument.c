/* An unknown plugin argument is an error that names it. */
/* { cw-options "-fplugin-arg-capture_window-verbos" } */
/* { cw-error-global "unknown argument '-fplugin-arg-capture_window-verbos' for plugin capture_window" } */
void f(void) {}
