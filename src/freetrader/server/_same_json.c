/* Whether two JSON-able values would be written as the same JSON text.
 *
 * The table sends a view as its changed fields only (server/tables.py, SentView). Python's ==
 * cannot decide "changed": True == 1 == 1.0, and 0.0 == -0.0, yet JSON writes them apart.
 * This walks both values in one pass, as == does, but asks for the same type at every level
 * (bool is not int, int is not float, list is not tuple), the same keys in the same order, and
 * floats with the same bits. Anything that is not JSON data counts as different, so the answer
 * errs only towards sending a field again. The Python fallback (marshal bytes) answers alike.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static int same(PyObject *a, PyObject *b);

/* Items of two lists (or two tuples) of length n, in order; borrowed references, as the stable
 * ABI reads them (one abi3 wheel for every CPython from 3.11). */
static int same_items(PyObject *a, PyObject *b, Py_ssize_t n, PyObject *(*item)(PyObject *, Py_ssize_t)) {
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = item(a, i), *y = item(b, i);
        if (x == NULL || y == NULL)
            return -1;
        int r = same(x, y);
        if (r <= 0)
            return r;
    }
    return 1;
}

static int same_dicts(PyObject *a, PyObject *b) {
    if (PyDict_Size(a) != PyDict_Size(b))
        return 0;
    Py_ssize_t i = 0, j = 0;
    PyObject *ka, *va, *kb, *vb;
    while (PyDict_Next(a, &i, &ka, &va)) {
        if (!PyDict_Next(b, &j, &kb, &vb))
            return 0;
        int r = same(ka, kb);
        if (r > 0)
            r = same(va, vb);
        if (r <= 0)
            return r;
    }
    return 1;
}

static int same(PyObject *a, PyObject *b) {
    if (a == b)
        return 1;
    PyTypeObject *t = Py_TYPE(a);
    if (t != Py_TYPE(b))
        return 0;
    if (t == &PyUnicode_Type || t == &PyLong_Type)
        return PyObject_RichCompareBool(a, b, Py_EQ);
    if (t == &PyFloat_Type) {
        double x = PyFloat_AsDouble(a), y = PyFloat_AsDouble(b);
        return memcmp(&x, &y, sizeof x) == 0;
    }
    if (t != &PyList_Type && t != &PyTuple_Type && t != &PyDict_Type)
        return 0; /* True/False/None are singletons (a == b above); anything else is not JSON data */
    if (Py_EnterRecursiveCall(" comparing views"))
        return -1;
    int r;
    if (t == &PyDict_Type)
        r = same_dicts(a, b);
    else if (t == &PyList_Type)
        r = PyList_Size(a) != PyList_Size(b) ? 0 : same_items(a, b, PyList_Size(a), PyList_GetItem);
    else
        r = PyTuple_Size(a) != PyTuple_Size(b) ? 0 : same_items(a, b, PyTuple_Size(a), PyTuple_GetItem);
    Py_LeaveRecursiveCall();
    return r;
}

static PyObject *py_same(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "same() takes two values");
        return NULL;
    }
    int r = same(args[0], args[1]);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r);
}

/* changes(old, new) -> (dict, bool): the items of new that are not in old or not the same there,
 * and whether the two have the same keys in the same order. One pass over both (the keys of one
 * view follow the same order, so each field's old value is found beside it, not looked up). */
static PyObject *py_changes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2 || !PyDict_CheckExact(args[0]) || !PyDict_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "changes() takes two dicts");
        return NULL;
    }
    PyObject *old = args[0], *now = args[1];
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    int same_keys = PyDict_Size(old) == PyDict_Size(now);
    Py_ssize_t i = 0, j = 0;
    PyObject *kn, *vn, *ko, *vo;
    while (PyDict_Next(now, &i, &kn, &vn)) {
        PyObject *prev = NULL;
        if (same_keys) {
            if (PyDict_Next(old, &j, &ko, &vo)) {
                int eq = ko == kn ? 1 : PyObject_RichCompareBool(ko, kn, Py_EQ);
                if (eq < 0)
                    goto fail;
                if (eq)
                    prev = vo;
                else
                    same_keys = 0;
            } else {
                same_keys = 0;
            }
        }
        if (prev == NULL) {
            prev = PyDict_GetItemWithError(old, kn);
            if (prev == NULL && PyErr_Occurred())
                goto fail;
        }
        int r = prev == NULL ? 0 : same(prev, vn);
        if (r < 0 || (r == 0 && PyDict_SetItem(out, kn, vn) < 0))
            goto fail;
    }
    return Py_BuildValue("(NO)", out, same_keys ? Py_True : Py_False);
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"same", (PyCFunction)(void (*)(void))py_same, METH_FASTCALL,
     "same(a, b): whether a and b, JSON-able values, would be written as the same JSON."},
    {"changes", (PyCFunction)(void (*)(void))py_changes, METH_FASTCALL,
     "changes(old, new) -> (dict, bool): new's items that differ from old's (as same() decides) or are "
     "new, and whether both have the same keys in the same order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_same_json", NULL, -1, methods};

PyMODINIT_FUNC PyInit__same_json(void) { return PyModule_Create(&module); }
