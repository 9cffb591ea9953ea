/* verbose takes no value. */
/* { cw-options "-fplugin-arg-capture_window-verbose=1" } */
/* { cw-error-global "unknown argument '-fplugin-arg-capture_window-verbose=1' for plugin capture_window" } */
void f(void) {}
