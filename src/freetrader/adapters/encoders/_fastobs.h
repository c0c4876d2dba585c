/* Reading a game state's fields from C, shared by the compiled encoders.
 *
 * A state keeps its fields in __slots__. A generic getattr from C costs about
 * as much as all of an encoder's arithmetic (it looks the name up through the
 * type's MRO and the instance at every read), so each field's descriptor is
 * looked up once per state type and its getter called directly after that;
 * a field that is not a data descriptor (a plain class attribute, say) is read
 * with getattr. A data descriptor's getter is what getattr would end by
 * calling, so the value is the same. Every read is checked: a wrong type, a
 * short list or an unset slot raises a Python error.
 *
 * Only the stable ABI (Py_LIMITED_API, 3.11) is used, so one abi3 wheel serves
 * CPython 3.11 and later: the descriptor's getter is found with PyType_GetSlot,
 * not by reading the member table's offsets (those structs are outside it).
 */
#ifndef FREETRADER_FASTOBS_H
#define FREETRADER_FASTOBS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define FT_MAX_FIELDS 64

/* For the reads an encoder makes dozens of times a call (ft_item, ft_get): inlined, their checks fold into the
 * caller's loop; as calls they were a seventh of an encode (instructions counted under callgrind). */
#if defined(__GNUC__) || defined(__clang__)
#define FT_INLINE static inline __attribute__((always_inline))
#else
#define FT_INLINE static inline
#endif

typedef struct {
    int n;
    const char *const *names;
    PyObject *interned[FT_MAX_FIELDS];
    PyObject *descr[FT_MAX_FIELDS];    /* the type's data descriptor of the field; NULL: ask getattr */
    descrgetfunc get[FT_MAX_FIELDS];   /* its getter */
    PyTypeObject *type;                /* the type the descriptors belong to */
    const char *game;                  /* for error messages */
} FieldTable;

/* CPython keeps the ints -5..256 as one static array of int objects, handed out for every such value;
 * most of what an encoder reads (indices, counts, -1 for none) is one of them. Where ft_init finds that
 * array (each of them at its place, equally spaced by a power of two), such an int's value is its place
 * in it: a subtraction and a shift instead of a PyLong_AsLong call. Anything else (a larger int, a bool,
 * an interpreter that keeps them otherwise) takes PyLong_AsLong, so the value is the same either way. */
#define FT_SMALL_LO (-5)
#define FT_SMALL_HI 256
static uintptr_t ft_small_base, ft_small_span;
static unsigned ft_small_shift;
static int ft_small_ok;

static void ft_find_small_ints(void) {
    PyObject *lo = PyLong_FromLong(FT_SMALL_LO), *next = PyLong_FromLong(FT_SMALL_LO + 1);
    ft_small_ok = 0;
    if (lo == NULL || next == NULL) {
        Py_XDECREF(lo);
        Py_XDECREF(next);
        PyErr_Clear();
        return;
    }
    uintptr_t base = (uintptr_t)lo, stride = (uintptr_t)next - base;
    unsigned shift = 0;
    while (shift < 16 && ((uintptr_t)1 << shift) < stride) shift++;
    int ok = (uintptr_t)next > base && ((uintptr_t)1 << shift) == stride;
    Py_DECREF(lo);
    Py_DECREF(next);
    for (long v = FT_SMALL_LO; ok && v <= FT_SMALL_HI; v++) {
        PyObject *a = PyLong_FromLong(v), *b = PyLong_FromLong(v); /* the same object twice: a cached one */
        ok = a != NULL && a == b && (uintptr_t)a == base + ((uintptr_t)(v - FT_SMALL_LO) << shift);
        Py_XDECREF(a);
        Py_XDECREF(b);
    }
    PyErr_Clear();
    if (!ok) return;
    ft_small_base = base;
    ft_small_shift = shift;
    ft_small_span = (uintptr_t)(FT_SMALL_HI - FT_SMALL_LO) << shift;
    ft_small_ok = 1;
}

/* An int object's value (bools are ints); -1 with an error set when it is none. */
static inline long ft_as_long(PyObject *x) {
    uintptr_t d = (uintptr_t)x - ft_small_base;
    if (ft_small_ok && d <= ft_small_span && (d & (((uintptr_t)1 << ft_small_shift) - 1)) == 0)
        return (long)(d >> ft_small_shift) + FT_SMALL_LO;
    return PyLong_AsLong(x);
}

static int ft_init(FieldTable *t) {
    ft_find_small_ints();
    if (t->n > FT_MAX_FIELDS) {
        PyErr_SetString(PyExc_RuntimeError, "too many fields for a FieldTable");
        return -1;
    }
    for (int f = 0; f < t->n; f++) {
        t->interned[f] = PyUnicode_InternFromString(t->names[f]);
        if (t->interned[f] == NULL) return -1;
    }
    return 0;
}

static void ft_find_descriptors(FieldTable *t, PyTypeObject *type) {
    for (int f = 0; f < t->n; f++) {
        Py_CLEAR(t->descr[f]);
        t->get[f] = NULL;
        /* getattr on the type gives a slot's member descriptor itself (its __get__ with no instance) */
        PyObject *d = PyObject_GetAttr((PyObject *)type, t->interned[f]);
        if (d == NULL) {
            PyErr_Clear(); /* not on the type: an instance attribute, read with getattr */
            continue;
        }
        PyTypeObject *dt = Py_TYPE(d);
        descrgetfunc get = (descrgetfunc)PyType_GetSlot(dt, Py_tp_descr_get);
        /* only a data descriptor wins over the instance's own attributes, as getattr has it */
        if (get != NULL && PyType_GetSlot(dt, Py_tp_descr_set) != NULL) {
            t->descr[f] = d;
            t->get[f] = get;
        } else {
            Py_DECREF(d);
        }
    }
    Py_INCREF((PyObject *)type);
    Py_XDECREF((PyObject *)t->type);
    t->type = type;
}

/* Call once per encode, before the reads. */
static void ft_bind(FieldTable *t, PyObject *state) {
    if (Py_TYPE(state) != t->type) ft_find_descriptors(t, Py_TYPE(state));
}

/* A field's value (a new reference); NULL with an error set. */
FT_INLINE PyObject *ft_get(FieldTable *t, PyObject *state, int f) {
    if (t->get[f] == NULL) return PyObject_GetAttr(state, t->interned[f]);
    PyObject *v = t->get[f](t->descr[f], state, (PyObject *)t->type);
    if (v == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_AttributeError, "%s state field %s is not set", t->game, t->names[f]);
    }
    return v;
}

/* An int field (bools are ints); sets *err on error. */
static long ft_long(FieldTable *t, PyObject *state, int f, int *err) {
    PyObject *v = ft_get(t, state, f);
    if (v == NULL) {
        *err = 1;
        return 0;
    }
    long x = ft_as_long(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) *err = 1;
    return x;
}

/* A field of type `type` (a list, a tuple; subclasses too) as a new reference; NULL with an error set if
 * it is something else. */
static PyObject *ft_typed(FieldTable *t, PyObject *state, int f, PyTypeObject *type) {
    PyObject *v = ft_get(t, state, f);
    if (v != NULL && !PyObject_TypeCheck(v, type)) {
        PyErr_Format(PyExc_TypeError, "%s state field %s is not a %s", t->game, t->names[f],
                     type == &PyList_Type ? "list" : "tuple");
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

static PyObject *ft_list(FieldTable *t, PyObject *state, int f) { return ft_typed(t, state, f, &PyList_Type); }
static PyObject *ft_tuple_field(FieldTable *t, PyObject *state, int f) { return ft_typed(t, state, f, &PyTuple_Type); }

/* The list fields named in which[0..n) into out[0..n) (new references). On error every
 * slot is NULL again and an exception is set: -1. */
static int ft_lists(FieldTable *t, PyObject *state, const int *which, int n, PyObject **out) {
    for (int i = 0; i < n; i++) out[i] = NULL;
    for (int i = 0; i < n; i++) {
        out[i] = ft_list(t, state, which[i]);
        if (out[i] == NULL) {
            for (int j = 0; j < i; j++) Py_CLEAR(out[j]);
            return -1;
        }
    }
    return 0;
}

/* Drop the references ft_lists took (NULL slots are skipped). */
static void ft_release(PyObject **objs, int n) {
    for (int i = 0; i < n; i++) Py_CLEAR(objs[i]);
}

/* Item i of a list or tuple as a long; -1 with an error set when short or not an int. The item is
 * fetched with its own bounds check (an encoder reads dozens per call: no size asked first). */
FT_INLINE int ft_item(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *x;
    /* the exact types first: PyList_Check is a function call in the stable ABI, a type compare is not */
    if (Py_IS_TYPE(seq, &PyList_Type)) {
        x = PyList_GetItem(seq, i);
    } else if (Py_IS_TYPE(seq, &PyTuple_Type)) {
        x = PyTuple_GetItem(seq, i);
    } else if (PyList_Check(seq)) {
        x = PyList_GetItem(seq, i);
    } else if (PyTuple_Check(seq)) {
        x = PyTuple_GetItem(seq, i);
    } else {
        PyErr_SetString(PyExc_TypeError, "expected a list or a tuple in the state");
        return -1;
    }
    if (x == NULL) {
        if (PyErr_ExceptionMatches(PyExc_IndexError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_IndexError, "a list in the state is shorter than its game needs");
        }
        return -1;
    }
    long v = ft_as_long(x);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* encode(state, seat)'s two arguments (METH_FASTCALL: no argument tuple parsed per call). */
static int ft_two_args(PyObject *const *args, Py_ssize_t nargs, PyObject **state, PyObject **seat) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "encode takes (state, seat), got %zd arguments", nargs);
        return -1;
    }
    *state = args[0];
    *seat = args[1];
    return 0;
}

/* seq as a new tuple; on a TypeError the message is `what` (PySequence_Fast's, in the stable ABI). */
static PyObject *ft_tuple(PyObject *seq, const char *what) {
    PyObject *t = PySequence_Tuple(seq);
    if (t == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, what);
    }
    return t;
}

/* *slot = o, dropping what it held (Py_XSETREF, outside the stable ABI). */
static void ft_replace(PyObject **slot, PyObject *o) {
    PyObject *old = *slot;
    *slot = o;
    Py_XDECREF(old);
}

/* New zeroed bytes of n float32 values; *out points at them, to be filled before the bytes are handed out.
 * Bytes, not a bytearray: an array over them is read-only as it is made, which is what the adapters hand
 * out (a writable one cost them a setflags call per observation); encode_state copies them. */
static PyObject *ft_floats(Py_ssize_t n, float **out) {
    PyObject *buf = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(float));
    if (buf == NULL) return NULL;
    *out = (float *)PyBytes_AsString(buf);
    if (*out == NULL) {
        Py_DECREF(buf);
        return NULL;
    }
    memset(*out, 0, n * sizeof(float));
    return buf;
}

#endif
