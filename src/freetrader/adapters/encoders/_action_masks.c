/* A position's legal action indices and its action mask in one call, for Catalogue.legal_mask.
 *
 * The adapters find, at every position, the index of each legal action and a
 * mask of the whole action space with a 1 at each. In Python that is a map over
 * id(), a list, a bytearray filled one index at a time and a copy to bytes: as
 * many instructions as an engine step. Here it is one pass.
 *
 * masks(by_id, table, width, actions) -> (indices, mask) or None
 *   by_id: the catalogue's dict id(action) -> index (actions met before; games
 *   hand out interned action objects, and the catalogue keeps each one, so an
 *   id stays that action's; entries are only ever added); table: a bytearray
 *   this call keeps by_id's entries in as a table of addresses (see table_for);
 *   width: the mask's size; actions: a list or tuple (last, so that
 *   functools.partial(masks, by_id, table, width) is the adapters' one call per position).
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

/* by_id's entries as a table of addresses, kept in the caller's bytearray `table`: an action's index is
 * found by its address alone, where a dict lookup made an int object of it and compared that with the
 * stored key by value (most of this call's cost). Layout: the number of by_id's entries it was made from,
 * its capacity (a power of two), then capacity slots of (address, index); address 0 is an empty slot. It
 * is made again whenever by_id's size differs: by_id only ever grows (Catalogue adds, never changes an
 * entry), so its size says whether the table is current. */
typedef struct { uintptr_t key; Py_ssize_t index; } Slot;
typedef struct { Py_ssize_t made_from, capacity; } Head;

static Py_ssize_t slot_of(uintptr_t key, Py_ssize_t capacity) {
    /* addresses are multiples of 16: the low bits say nothing, a multiplicative hash mixes the rest */
    return (Py_ssize_t)(((key >> 4) * (uintptr_t)0x9E3779B97F4A7C15ull) >> 16) & (capacity - 1);
}

/* The table for by_id (made again if by_id's size changed); NULL with an error set, or NULL and no error
 * when by_id holds something else than id -> index ints (then the dict answers). */
static Head *table_for(PyObject *by_id, PyObject *table) {
    Py_ssize_t n = PyDict_Size(by_id);
    if (PyByteArray_Size(table) >= (Py_ssize_t)sizeof(Head)) {
        Head *head = (Head *)(void *)PyByteArray_AsString(table);
        if (head->made_from == n) return head;
    }
    Py_ssize_t capacity = 64;
    while (capacity < 2 * n) capacity *= 2;
    if (PyByteArray_Resize(table, (Py_ssize_t)sizeof(Head) + capacity * (Py_ssize_t)sizeof(Slot)) < 0) return NULL;
    Head *head = (Head *)(void *)PyByteArray_AsString(table);
    Slot *slots = (Slot *)(void *)(head + 1);
    memset(slots, 0, (size_t)capacity * sizeof(Slot));
    head->made_from = -1; /* not usable until every entry is in */
    head->capacity = capacity;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(by_id, &pos, &key, &value)) {
        uintptr_t address = (uintptr_t)PyLong_AsVoidPtr(key);
        Py_ssize_t index = PyLong_AsSsize_t(value);
        if (PyErr_Occurred() || address == 0 || index < 0) {
            PyErr_Clear();
            return NULL;
        }
        Py_ssize_t at = slot_of(address, capacity);
        while (slots[at].key != 0) at = (at + 1) & (capacity - 1);
        slots[at].key = address;
        slots[at].index = index;
    }
    head->made_from = n;
    return head;
}

static PyObject *masks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "masks takes (by_id, table, width, actions), got %zd arguments", nargs);
        return NULL;
    }
    PyObject *by_id = args[0], *table = args[1], *actions = args[3];
    if (!PyDict_Check(by_id) || !PyByteArray_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "masks: by_id must be a dict of id(action) -> index, table a bytearray");
        return NULL;
    }
    int is_list = PyList_Check(actions);
    if (!is_list && !PyTuple_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "masks: actions must be a list or a tuple");
        return NULL;
    }
    Py_ssize_t width = PyLong_AsSsize_t(args[2]);
    if (width == -1 && PyErr_Occurred()) return NULL;
    if (width < 0) {
        PyErr_SetString(PyExc_ValueError, "masks: width must be at least 0");
        return NULL;
    }
    Head *head = table_for(by_id, table);
    if (head == NULL) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE; /* not a table of ints: the Python path decides */
    }
    const Slot *slots = (const Slot *)(const void *)(head + 1);
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
        uintptr_t address = (uintptr_t)(is_list ? PyList_GetItem(actions, i) : PyTuple_GetItem(actions, i));
        Py_ssize_t at = slot_of(address, head->capacity);
        while (slots[at].key != address && slots[at].key != 0) at = (at + 1) & (head->capacity - 1);
        if (slots[at].key == 0) goto python; /* not met before */
        Py_ssize_t k = slots[at].index;
        if (k >= width || ones[k]) goto python; /* out of the mask, or a shared index */
        ones[k] = 1;
        PyObject *found = PyLong_FromSsize_t(k);
        if (found == NULL) goto fail;
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
     "masks(by_id, table, width, actions) -> (indices, mask bytes) or None (see the module docstring)"},
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
