/* Malformed loop specs: each an error that names it and shows the forms. */
/* { cw-options "-fplugin-arg-capture_window-loop=train.c -fplugin-arg-capture_window-loop=train.c:0 -fplugin-arg-capture_window-loop=train.c:42:30 -fplugin-arg-capture_window-loop=fit:x:3 -fplugin-arg-capture_window-loop=fit:1:0 -fplugin-arg-capture_window-loop=my-fit -fplugin-arg-capture_window-loop=train.c:1:2:3:a:b -fplugin-arg-capture_window-loop" } */
/* { cw-error-global "bad value 'train.c' for '-fplugin-arg-capture_window-loop': FILE must be followed by :LINE (expected FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]], e.g. 'train.c:42:30:3' or 'ns::Trainer::fit:30:3:train')" } */
/* { cw-error-global "bad value 'train.c:0' for '-fplugin-arg-capture_window-loop': LINE must be a decimal number from 1 to 4294967295 (expected" } */
/* { cw-error-global "bad value 'train.c:42:30' for '-fplugin-arg-capture_window-loop': START must be followed by :COUNT (expected" } */
/* { cw-error-global "bad value 'fit:x:3' for '-fplugin-arg-capture_window-loop': START must be a decimal number from 0 to 2^62 (expected" } */
/* { cw-error-global "bad value 'fit:1:0' for '-fplugin-arg-capture_window-loop': COUNT must be a decimal number from 1 to 2^62 (expected" } */
/* { cw-error-global "bad value 'my-fit' for '-fplugin-arg-capture_window-loop': FUNCTION must be a C name or a C++ qualified name such as ns::Trainer::fit (a FILE holds a '.' or a '/') (expected" } */
/* { cw-error-global "bad value 'train.c:1:2:3:a:b' for '-fplugin-arg-capture_window-loop': there are too many fields (expected" } */
/* { cw-error-global "bad value '' for '-fplugin-arg-capture_window-loop': the value is empty (expected" } */
void f(int n) { for (int i = 0; i < n; i++) ; }
