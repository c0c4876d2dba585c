/* A position's legal action indices and its action mask in one call, for Catalogue.legal_mask.
 *
 * The adapters find, at every position, the index of each legal action and a
 * mask of the whole action space with a 1 at each. In Python that is a map over
 * id(), a list, a bytearray filled one index at a time and a copy to bytes: as
 * many instructions as an engine step. Here it is one pass.
 *
 * masks(by_id, width, actions) -> (indices, mask) or None
 *   by_id: the catalogue's dict id(action) -> index (actions met before; games
 *   hand out interned action objects, and the catalogue keeps each one, so an
 *   id stays that action's); width: the mask's size; actions: a list or tuple (last, so
 *   that functools.partial(masks, by_id, width) is the adapters' one call per position).
 *   indices is a new list (the index of each action, in order); mask is bytes of
 *   width int8 values, 1 at each index. None when an action's id is not in
 *   by_id or two actions share an index: the caller's Python path then decides
 *   (it records new actions and resolves overflow slots), so the answer is
 *   always the Python path's.
 *
 * Only the stable ABI (Py_LIMITED_API, 3.11) is used, so one abi3 wheel serves CPython 3.11 and later.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static PyObject *masks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "masks takes (by_id, width, actions), got %zd arguments", nargs);
        return NULL;
    }
    PyObject *by_id = args[0], *actions = args[2];
    if (!PyDict_Check(by_id)) {
        PyErr_SetString(PyExc_TypeError, "masks: by_id must be a dict of id(action) -> index");
        return NULL;
    }
    int is_list = PyList_Check(actions);
    if (!is_list && !PyTuple_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "masks: actions must be a list or a tuple");
        return NULL;
    }
    Py_ssize_t width = PyLong_AsSsize_t(args[1]);
    if (width == -1 && PyErr_Occurred()) return NULL;
    if (width < 0) {
        PyErr_SetString(PyExc_ValueError, "masks: width must be at least 0");
        return NULL;
    }
    Py_ssize_t n = is_list ? PyList_Size(actions) : PyTuple_Size(actions);
    PyObject *indices = PyList_New(n);
    if (indices == NULL) return NULL;
    PyObject *mask = PyBytes_FromStringAndSize(NULL, width);
    if (mask == NULL) {
        Py_DECREF(indices);
        return NULL;
    }
    char *ones = PyBytes_AsString(mask); /* not shared yet: filled in place */
    memset(ones, 0, (size_t)width);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *action = is_list ? PyList_GetItem(actions, i) : PyTuple_GetItem(actions, i);
        PyObject *key = PyLong_FromVoidPtr(action); /* what id(action) is */
        if (key == NULL) goto fail;
        PyObject *found = PyDict_GetItemWithError(by_id, key); /* borrowed */
        Py_DECREF(key);
        if (found == NULL) {
            if (PyErr_Occurred()) goto fail;
            goto python; /* not met before */
        }
        Py_ssize_t k = PyLong_AsSsize_t(found);
        if (k == -1 && PyErr_Occurred()) goto fail;
        if (k < 0 || k >= width || ones[k]) goto python; /* out of the mask, or a shared index */
        ones[k] = 1;
        Py_INCREF(found);
        PyList_SetItem(indices, i, found); /* steals the reference */
    }
    PyObject *pair = PyTuple_New(2);
    if (pair == NULL) goto fail;
    PyTuple_SetItem(pair, 0, indices);
    PyTuple_SetItem(pair, 1, mask);
    return pair;

python:
    Py_DECREF(indices);
    Py_DECREF(mask);
    Py_RETURN_NONE;
fail:
    Py_DECREF(indices);
    Py_DECREF(mask);
    return NULL;
}

/* ids(actions) -> bytes: the actions' addresses (what id() gives) side by side, a key for the set as
 * tuple(map(id, actions)) is, without an int object per action (a quarter of what a cached mask cost). */
static PyObject *ids(PyObject *self, PyObject *actions) {
    (void)self;
    int is_list = PyList_Check(actions);
    if (!is_list && !PyTuple_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "ids: actions must be a list or a tuple");
        return NULL;
    }
    Py_ssize_t n = is_list ? PyList_Size(actions) : PyTuple_Size(actions);
    PyObject *key = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(PyObject *));
    if (key == NULL) return NULL;
    PyObject **at = (PyObject **)(void *)PyBytes_AsString(key); /* not shared yet: filled in place */
    for (Py_ssize_t i = 0; i < n; i++) at[i] = is_list ? PyList_GetItem(actions, i) : PyTuple_GetItem(actions, i);
    return key;
}

static PyMethodDef methods[] = {
    {"masks", (PyCFunction)(void (*)(void))masks, METH_FASTCALL,
     "masks(by_id, width, actions) -> (indices, mask bytes) or None (see the module docstring)"},
    {"ids", ids, METH_O, "ids(actions) -> bytes of the actions' addresses: a key for the set, as tuple(map(id, actions))"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_action_masks", "Legal action indices and masks in one call (see base.py's Catalogue).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__action_masks(void) {
    return PyModule_Create(&module);
}
