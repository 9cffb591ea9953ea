/* A loop spec's LABEL follows the pragma's rule. */
/* { cw-options "-fplugin-arg-capture_window-loop=spec_bad_label.c:6:30:3:train/eval" } */
/* { cw-error-global "bad value 'spec_bad_label.c:6:30:3:train/eval' for '-fplugin-arg-capture_window-loop': LABEL must match [A-Za-z0-9_.-]{1,63} (expected FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]]" } */
void f(int n)
{
  for (int i = 0; i < n; i++) ;
}
