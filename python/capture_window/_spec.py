"""_spec.py - the loop spec engine of libcapture_window
(capture_window/loop_spec.h, version 1) through ctypes: the grammar of
`--loop`, its form, the FILE and FUNCTION matchers and the label rule are
the C front doors' own, in their Python dialect (FUNCTION is a dotted
name such as Trainer.fit; a FILE ends in .py or holds a '/'). Every
check of a window the Python door makes is here: a `--loop` spec's, and
loop()'s and steps()' START, COUNT and LABEL (check_window)."""
import ctypes

from . import _runtime

PYTHON = 1                       # enum cw_loop_spec_language
EXAMPLE = "e.g. train.py:42:30:3 or Trainer.fit:30:3"
VALUE_MAX = 1 << 62              # CW_VALUE_MAX, the bound on START and COUNT


class SpecError(Exception):
    """A spec that marks nothing: printed as it is, exit status 2."""


class _Window(ctypes.Structure):
    """struct cw_loop_window."""
    _fields_ = [("start", ctypes.c_longlong), ("count", ctypes.c_longlong),
                ("label", ctypes.c_char * 64)]


class Spec(ctypes.Structure):
    """struct cw_loop_spec, with the text it was parsed from."""
    _fields_ = [("language", ctypes.c_int), ("by_function", ctypes.c_int),
                ("line", ctypes.c_uint), ("window", _Window),
                ("target", ctypes.c_char * 512)]

    text = ""

    @property
    def name(self):
        return self.target.decode()

    @property
    def start(self):
        return self.window.start

    @property
    def count(self):
        return self.window.count

    @property
    def label(self):
        return self.window.label.decode()


def _bind(lib):
    lib.cw_loop_spec_parse_v1.restype = ctypes.c_char_p
    lib.cw_loop_spec_parse_v1.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(Spec),
                                          ctypes.c_char_p, ctypes.c_size_t]
    for name in ("cw_loop_spec_file_matches_v1", "cw_loop_spec_function_matches_v1"):
        getattr(lib, name).restype = ctypes.c_int
        getattr(lib, name).argtypes = [ctypes.POINTER(Spec), ctypes.c_char_p]
    lib.cw_label_is_valid_v1.restype = ctypes.c_int
    lib.cw_label_is_valid_v1.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.cw_loop_spec_form_v1.restype = ctypes.c_char_p
    lib.cw_loop_spec_form_v1.argtypes = []
    lib.cw_number_parse_v1.restype = ctypes.c_char_p
    lib.cw_number_parse_v1.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                       ctypes.c_longlong, ctypes.c_longlong,
                                       ctypes.POINTER(ctypes.c_longlong), ctypes.c_char_p,
                                       ctypes.c_size_t]
    return lib


LIB = _bind(_runtime.LIB) if _runtime.LIB else None
FORM = LIB.cw_loop_spec_form_v1().decode() if LIB else None     # CW_LOOP_SPEC_FORM


def parse(text):
    """TEXT -> Spec; SpecError saying what is wrong with it."""
    spec, buf = Spec(), ctypes.create_string_buffer(256)
    reason = LIB.cw_loop_spec_parse_v1(text.encode(), PYTHON, ctypes.byref(spec), buf,
                                       len(buf))
    if reason:
        raise SpecError("capture_window: bad value '%s' for --loop: %s (expected %s, %s)"
                        % (text, reason.decode(), FORM, EXAMPLE))
    spec.text = text
    return spec


def file_matches(spec, path):
    """PATH ends in SPEC's FILE at a '/'."""
    return bool(LIB.cw_loop_spec_file_matches_v1(ctypes.byref(spec), path.encode()))


def function_matches(spec, qualified):
    """QUALIFIED (MODULE.QUALNAME) is SPEC's FUNCTION or ends in '.' and it."""
    return bool(LIB.cw_loop_spec_function_matches_v1(ctypes.byref(spec), qualified.encode()))


def label_is_valid(label):
    """LABEL matches [A-Za-z0-9_.-]{1,63} (the pragma's rule)."""
    data = label.encode()
    return bool(LIB.cw_label_is_valid_v1(data, len(data)))


def number_reason(name, value, low):
    """None if VALUE, an int, is in [LOW, 2^62]; else the engine's words
    for the bound (cw_number_parse_v1: "NAME must be a decimal number
    from LOW to 2^62"). Without the library nothing is checked: the rule is
    the engine's (and the loop runs unmarked)."""
    if not LIB:
        return None
    # Text the engine reads: an int's digits (str() refuses an int of
    # thousands of digits; anything over 63 bits is out anyway), else none.
    text = str(value).encode() if type(value) is int and value.bit_length() < 64 else b""
    out, buf = ctypes.c_longlong(), ctypes.create_string_buffer(128)
    reason = LIB.cw_number_parse_v1(text, len(text), name.encode(), low, VALUE_MAX,
                                    ctypes.byref(out), buf, len(buf))
    return reason.decode() if reason else None


def check_window(start, count, label):
    """loop()'s and steps()' START, COUNT and LABEL by the pragma's rules,
    as ValueError (the label's only with the library: the rule is its)."""
    for name, value, low in (("START", start, 0), ("COUNT", count, 1)):
        reason = number_reason(name, value, low)
        if reason:
            raise ValueError("capture_window: %s, got %r" % (reason, value))
    if not isinstance(label, str) or (LIB and not label_is_valid(label)):
        raise ValueError("capture_window: the label must match [A-Za-z0-9_.-]{1,63}, got %r"
                         % (label,))
