/* Float32 vectors as Python lists of floats, as ndarray.tolist() gives them, cheaper.
 *
 * pyspiel hands tensors out as Python lists, and for an observation of a few
 * thousand floats making (and later freeing) one float object per entry
 * costs more than encoding it. An observation repeats few distinct values
 * (mostly 0.0 and 1.0), and floats are immutable, so the list here shares one
 * float object per value: a small direct-mapped cache keyed by the value's
 * 32 bits (bits, not values, so that -0.0 and each NaN come out as their own
 * float, as tolist makes them). Each entry is (double)value, the conversion
 * tolist makes. The list itself is always new: a caller may change it.
 *
 * Only the stable ABI (Py_LIMITED_API, 3.11) is used, so one abi3 wheel serves CPython 3.11 and
 * later: items are set with PyList_SetItem, each with its own reference.
 *
 * floats(vector) takes one buffer of native float32 (a numpy float32 array,
 * bytes, a bytearray) or a list or tuple of such buffers, joined in order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define CACHE_BITS 10
#define CACHE_SIZE (1u << CACHE_BITS)

static uint32_t cache_key[CACHE_SIZE];
static PyObject *cache_float[CACHE_SIZE];
/* 0.0, by far the most frequent entry: several objects in turn, so that adding and dropping the
 * references to them (here and when the list is freed) do not all wait on one counter */
#define ZEROS 8
static PyObject *zero[ZEROS];

/* A float object for the float32 with these bits (a new reference); NULL with an error set. */
static inline PyObject *float_of(uint32_t bits) {
    if (bits == 0) {
        Py_INCREF(zero[0]);
        return zero[0];
    }
    uint32_t h = (bits * 2654435761u) >> (32 - CACHE_BITS);
    PyObject *o = cache_float[h];
    if (o != NULL && cache_key[h] == bits) {
        Py_INCREF(o);
        return o;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    o = PyFloat_FromDouble((double)f);
    if (o == NULL) return NULL;
    Py_INCREF(o);
    PyObject *old = cache_float[h];
    cache_float[h] = o;
    Py_XDECREF(old);
    cache_key[h] = bits;
    return o;
}

/* A buffer of float32: raw bytes or float32 items, contiguous, a whole number of floats. */
static int get_floats(PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *fmt = view->format;
    int raw = fmt == NULL || strcmp(fmt, "B") == 0 || strcmp(fmt, "b") == 0 || strcmp(fmt, "c") == 0;
    int f32 = fmt != NULL && (strcmp(fmt, "f") == 0 || strcmp(fmt, "=f") == 0 ||
                              (strcmp(fmt, "<f") == 0 && PY_LITTLE_ENDIAN) || (strcmp(fmt, ">f") == 0 && PY_BIG_ENDIAN));
    if ((!raw && !f32) || view->len % 4 != 0) {
        PyErr_Format(PyExc_TypeError, "expected native float32 values (or their bytes), got format %s and %zd bytes",
                     fmt == NULL ? "none" : fmt, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Entries at..at+n of `out` (a new list: its items are NULL until set) from the buffer's floats. */
static int fill(PyObject *out, Py_ssize_t at, const Py_buffer *view) {
    const char *p = (const char *)view->buf;
    Py_ssize_t n = view->len / 4;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, p + 4 * i, sizeof bits);
        PyObject *o;
        if (bits == 0) { /* several zero objects in turn: the references do not all wait on one counter */
            o = zero[i % ZEROS];
            Py_INCREF(o);
        } else if ((o = float_of(bits)) == NULL) {
            return -1; /* the items not set stay NULL: the list is freed without them */
        }
        if (PyList_SetItem(out, at + i, o) < 0) return -1; /* steals o */
    }
    return 0;
}

static PyObject *floats(PyObject *self, PyObject *arg) {
    (void)self;
    if (!PyList_Check(arg) && !PyTuple_Check(arg)) {
        Py_buffer view;
        if (get_floats(arg, &view) < 0) return NULL;
        PyObject *out = PyList_New(view.len / 4);
        if (out != NULL && fill(out, 0, &view) < 0) Py_CLEAR(out); /* unset items are NULL: safe to free */
        PyBuffer_Release(&view);
        return out;
    }
    PyObject *parts = PySequence_Tuple(arg); /* a tuple of the buffers: the list cannot change under us */
    if (parts == NULL) return NULL;
    Py_ssize_t k = PyTuple_Size(parts), total = 0;
    for (Py_ssize_t i = 0; i < k; i++) { /* sizes first, so that the list is made once */
        Py_buffer view;
        if (get_floats(PyTuple_GetItem(parts, i), &view) < 0) {
            Py_DECREF(parts);
            return NULL;
        }
        total += view.len / 4;
        PyBuffer_Release(&view);
    }
    PyObject *out = PyList_New(total);
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; out != NULL && i < k; i++) {
        Py_buffer view;
        if (get_floats(PyTuple_GetItem(parts, i), &view) < 0) {
            Py_CLEAR(out);
            break;
        }
        /* refused rather than overrun or left short, should a buffer have changed size since */
        if (view.len / 4 > total - at || fill(out, at, &view) < 0) Py_CLEAR(out);
        at += view.len / 4;
        PyBuffer_Release(&view);
    }
    if (out == NULL || at != total) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a buffer changed size while it was read");
        Py_CLEAR(out);
    }
    Py_DECREF(parts);
    return out;
}

static PyMethodDef methods[] = {
    {"floats", floats, METH_O,
     "floats(vector) -> list[float]: float32 values (a buffer, or a list of buffers joined) as tolist gives them"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_float_lists",
    "Float32 vectors as Python lists, sharing one float object per value (see _float_lists.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__float_lists(void) {
    for (int z = 0; z < ZEROS; z++)
        if (zero[z] == NULL && (zero[z] = PyFloat_FromDouble(0.0)) == NULL) return NULL;
    return PyModule_Create(&module);
}
