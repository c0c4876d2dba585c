/* Reading a game state's fields from C, shared by the compiled encoders.
 *
 * A state keeps its fields in __slots__. A generic getattr from C costs about
 * as much as all of an encoder's arithmetic, so each field's slot offset is
 * looked up once per state type and read directly after that; a field that
 * is not a plain slot (a property, say) is read with getattr. Every read is
 * checked: a wrong type, a short list or an unset slot raises a Python error.
 */
#ifndef FREETRADER_FASTOBS_H
#define FREETRADER_FASTOBS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define FT_MAX_FIELDS 64

typedef struct {
    int n;
    const char *const *names;
    PyObject *interned[FT_MAX_FIELDS];
    Py_ssize_t offsets[FT_MAX_FIELDS]; /* -1: ask getattr */
    PyTypeObject *type;                /* the type the offsets belong to */
    const char *game;                  /* for error messages */
} FieldTable;

static int ft_init(FieldTable *t) {
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

static void ft_find_offsets(FieldTable *t, PyTypeObject *type) {
    for (int f = 0; f < t->n; f++) {
        PyObject *d = _PyType_Lookup(type, t->interned[f]); /* borrowed */
        t->offsets[f] = -1;
        /* only a slot of this type's own layout (or a base's) is read by its offset */
        if (d != NULL && Py_IS_TYPE(d, &PyMemberDescr_Type) && PyType_IsSubtype(type, PyDescr_TYPE(d))) {
            PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
            if (m->type == T_OBJECT_EX && !(m->flags & READONLY)) t->offsets[f] = m->offset;
        }
    }
    Py_INCREF(type);
    Py_XDECREF(t->type);
    t->type = type;
}

/* Call once per encode, before the reads. */
static void ft_bind(FieldTable *t, PyObject *state) {
    if (Py_TYPE(state) != t->type) ft_find_offsets(t, Py_TYPE(state));
}

/* A field's value (a new reference); NULL with an error set. */
static PyObject *ft_get(FieldTable *t, PyObject *state, int f) {
    Py_ssize_t off = t->offsets[f];
    if (off < 0) return PyObject_GetAttr(state, t->interned[f]);
    PyObject *v = *(PyObject **)((char *)state + off);
    if (v == NULL) {
        PyErr_Format(PyExc_AttributeError, "%s state field %s is not set", t->game, t->names[f]);
        return NULL;
    }
    Py_INCREF(v);
    return v;
}

/* An int field (bools are ints); sets *err on error. */
static long ft_long(FieldTable *t, PyObject *state, int f, int *err) {
    PyObject *v = ft_get(t, state, f);
    if (v == NULL) {
        *err = 1;
        return 0;
    }
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) *err = 1;
    return x;
}

/* A list field (a new reference); NULL with an error set if it is not a list. */
static PyObject *ft_list(FieldTable *t, PyObject *state, int f) {
    PyObject *v = ft_get(t, state, f);
    if (v != NULL && !PyList_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s state field %s is not a list", t->game, t->names[f]);
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

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

/* Item i of a list or tuple as a long; -1 with an error set when short or not an int. */
static int ft_item(PyObject *seq, Py_ssize_t i, long *out) {
    Py_ssize_t n = PyList_Check(seq) ? PyList_GET_SIZE(seq) : PyTuple_Check(seq) ? PyTuple_GET_SIZE(seq) : -1;
    if (n < 0) {
        PyErr_SetString(PyExc_TypeError, "expected a list or a tuple in the state");
        return -1;
    }
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "a list in the state is shorter than its game needs");
        return -1;
    }
    PyObject *x = PyList_Check(seq) ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
    long v = PyLong_AsLong(x);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* A new zeroed bytearray of n float32 values; *out points at them. */
static PyObject *ft_floats(Py_ssize_t n, float **out) {
    PyObject *buf = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(float));
    if (buf == NULL) return NULL;
    *out = (float *)PyByteArray_AS_STRING(buf);
    memset(*out, 0, n * sizeof(float));
    return buf;
}

#endif
