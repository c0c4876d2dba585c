/* The Contraband observation (encoder version 1), compiled.
 *
 * encode(state, seat) returns the observation as bytes of native
 * float32, the same vector as ContrabandEncoder.features(state.view(seat)):
 * each value is computed in double, as Python computes it there, then
 * rounded to float once. It reads only what the seat's view shows: the
 * public fields, and the luggage for its holder once looked at. The layout
 * is declared in games/contraband/encoder.py; configure() hands over the constants
 * (phases, articles, their counts) so that they are defined in one place.
 * The pending decision is the top of the state's frames: its kind is the frame's
 * ``phase``; the seat to act is the officer's for a search, the first payer's for
 * payments (their ``owed``), else the luggage holder's, as the frames' ``actor`` say.
 * Anything unexpected (a missing field, a value that is not an int) raises,
 * and the Python path is the reference the tests compare against.
 */
#include "_fastobs.h"
#include "_contraband_layout.h" /* the offsets, generated from the encoder's declared layout */

#define MAX_SEATS CB_SEATS_COUNT
#define PER_SEAT CB_SEATS_STRIDE
#define MAX_ARTICLES 64

static int n_phases = -1, over_phase = -1, search_phase = -1, broke_phase = -1, n_articles = 0;
static double counts[MAX_ARTICLES];

enum {
    F_SEATS, F_FRAMES, F_HOLDER, F_EXAMINED, F_OFFICER, F_DECLARER, F_ROUND, F_RESHUFFLES,
    F_DECLARATIONS, F_UNUSED, F_BAG_CLAIM, F_PACK, F_DISCARD_HIDDEN, F_DISCARD_SHOWN, F_LUGGAGE, F_CLAIM,
    F_CASH, F_RETIRED, F_BEEN_OFFICER, F_DECLARED, F_CAUGHT, F_CLEARED, F_SEARCHES, F_WAVED, F_INFORMS,
    F_LOANS, N_FIELDS
};
static const char *const field_names[N_FIELDS] = {
    "seats", "frames", "holder", "examined", "officer", "declarer", "round", "reshuffles",
    "declarations", "unused", "bag_claim", "pack", "discard_hidden", "discard_shown", "luggage", "claim",
    "cash", "retired", "been_officer", "declared", "caught", "cleared", "searches", "waved", "informs",
    "loans",
};
static FieldTable T = {.n = N_FIELDS, .names = field_names, .game = "Contraband"};

/* Per-article counts of a list of article indices (out-of-range cards are an error). */
static int count_articles(PyObject *list, double *out) {
    for (int a = 0; a < n_articles; a++) out[a] = 0.0;
    Py_ssize_t n = PyList_Size(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        long k;
        if (ft_item(list, i, &k) < 0) return -1;
        if (k < 0 || k >= n_articles) {
            PyErr_Format(PyExc_ValueError, "article index %ld out of range", k);
            return -1;
        }
        out[k] += 1.0;
    }
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *seq;
    if (!PyArg_ParseTuple(args, "iiiiO", &n_phases, &over_phase, &search_phase, &broke_phase, &seq)) return NULL;
    PyObject *fast = ft_tuple(seq, "article counts must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PyTuple_Size(fast);
    if (n > MAX_ARTICLES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "at most %d articles, got %zd", MAX_ARTICLES, n);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        counts[i] = PyFloat_AsDouble(PyTuple_GetItem(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    if (n != CB_REVEALED_SIZE || n_phases != CB_PHASE_SIZE) {
        PyErr_Format(PyExc_ValueError, "compiled for %d phases and %d articles, configured with %d and %zd: "
                     "regenerate _contraband_layout.h and rebuild", CB_PHASE_SIZE, CB_REVEALED_SIZE, n_phases, n);
        n_phases = -1;
        return NULL;
    }
    n_articles = (int)n;
    Py_RETURN_NONE;
}

/* The top frame's phase and seat to act, and its payments owed (a new reference) while a payer is asked;
 * an empty stack is the game's end (phase stays over_phase, act -1). */
static PyObject *phase_key, *owed_key; /* interned: a C string would be made into a str at every read */

static int top_frame(PyObject *state, long officer, long holder, long *phase, long *act, PyObject **owed) {
    PyObject *frames = ft_tuple_field(&T, state, F_FRAMES);
    if (frames == NULL) return -1;
    Py_ssize_t depth = PyTuple_Size(frames);
    if (depth == 0) {
        Py_DECREF(frames);
        return 0;
    }
    PyObject *top = PyTuple_GetItem(frames, depth - 1);
    PyObject *kind = PyObject_GetAttr(top, phase_key);
    *phase = kind == NULL ? -1 : PyLong_AsLong(kind);
    Py_XDECREF(kind);
    if (*phase == -1 && PyErr_Occurred()) {
        Py_DECREF(frames);
        return -1;
    }
    if (*phase == broke_phase) {
        *owed = PyObject_GetAttr(top, owed_key);
        Py_DECREF(frames);
        if (*owed == NULL) return -1;
        PyObject *first = PyTuple_Check(*owed) && PyTuple_Size(*owed) > 0 ? PyTuple_GetItem(*owed, 0) : NULL;
        if (first == NULL || !PyTuple_Check(first) || PyTuple_Size(first) != 3) {
            Py_CLEAR(*owed);
            PyErr_SetString(PyExc_TypeError, "a pending payment is not a (payer, payee, amount) tuple");
            return -1;
        }
        *act = PyLong_AsLong(PyTuple_GetItem(first, 0));
        if (*act == -1 && PyErr_Occurred()) {
            Py_CLEAR(*owed);
            return -1;
        }
        return 0;
    }
    Py_DECREF(frames);
    *act = *phase == search_phase ? officer : holder;
    return 0;
}

static PyObject *encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *state, *seat_obj;
    if (ft_two_args(args, nargs, &state, &seat_obj) < 0) return NULL;
    if (n_phases < 0) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    ft_bind(&T, state);
    int err = 0;
    long seat = -1;
    if (seat_obj != Py_None) {
        seat = PyLong_AsLong(seat_obj);
        if (seat == -1 && PyErr_Occurred()) return NULL;
    }
    long n = ft_long(&T, state, F_SEATS, &err);
    long holder = ft_long(&T, state, F_HOLDER, &err);
    long examined = ft_long(&T, state, F_EXAMINED, &err);
    long officer = ft_long(&T, state, F_OFFICER, &err);
    long declarer = ft_long(&T, state, F_DECLARER, &err);
    long round_ = ft_long(&T, state, F_ROUND, &err);
    long reshuffles = ft_long(&T, state, F_RESHUFFLES, &err);
    long declarations = ft_long(&T, state, F_DECLARATIONS, &err);
    long unused = ft_long(&T, state, F_UNUSED, &err);
    long bag_claim = ft_long(&T, state, F_BAG_CLAIM, &err);
    if (err) return NULL;
    if (n < 1 || n > MAX_SEATS || seat < -1 || seat >= n) {
        PyErr_Format(PyExc_ValueError, "bad seat %ld for %ld seats", seat, n);
        return NULL;
    }
    long me = seat < 0 ? 0 : seat;
    long phase = over_phase, act = -1;
    PyObject *payments = NULL; /* the payments still owed, while a payer is asked (a new reference) */
    if (top_frame(state, officer, holder, &phase, &act, &payments) < 0) return NULL;
    int over = phase == over_phase;
    int lug = holder >= 0;
    int mine = seat >= 0 && holder == seat && examined;

    Py_ssize_t size = CB_SIZE;
    float *out;
    PyObject *buf = ft_floats(size, &out);
    if (buf == NULL) {
        Py_XDECREF(payments);
        return NULL;
    }

    enum { L_PACK, L_HIDDEN, L_SHOWN, L_LUGGAGE, L_CLAIM, L_CASH, L_RETIRED, L_BEEN, L_DECLARED, L_CAUGHT,
           L_CLEARED, L_SEARCHES, L_WAVED, L_INFORMS, L_LOANS, N_LISTS };
    static const int list_fields[N_LISTS] = {
        F_PACK, F_DISCARD_HIDDEN, F_DISCARD_SHOWN, F_LUGGAGE, F_CLAIM, F_CASH, F_RETIRED, F_BEEN_OFFICER,
        F_DECLARED, F_CAUGHT, F_CLEARED, F_SEARCHES, F_WAVED, F_INFORMS, F_LOANS,
    };
    PyObject *lists[N_LISTS] = {NULL};
    if (ft_lists(&T, state, list_fields, N_LISTS, lists) < 0) goto fail;

    if (phase >= 0 && phase < n_phases) out[CB_PHASE + phase] = 1.0f;
    out[CB_SEAT_COUNT + n - 1] = 1.0f;
    out[CB_ROUND] = (float)(round_ / 10.0);
    out[CB_RESHUFFLES] = (float)(reshuffles / 10.0);
    out[CB_DECLARATIONS] = (float)(declarations / 100.0);
    out[CB_UNUSED] = (float)(unused / 100.0);
    out[CB_PACK] = (float)(PyList_Size(lists[L_PACK]) / 54.0);
    out[CB_FACE_DOWN] = (float)(PyList_Size(lists[L_HIDDEN]) / 54.0);
    out[CB_LUGGAGE] = lug ? 1.0f : 0.0f;
    out[CB_LUGGAGE_CARDS] = lug ? (float)(PyList_Size(lists[L_LUGGAGE]) / 4.0) : 0.0f;
    out[CB_EXAMINED] = lug && examined ? 1.0f : 0.0f;
    out[CB_BAG_CLAIMED] = bag_claim ? 1.0f : 0.0f;
    out[CB_MINE_SHOWN] = mine ? 1.0f : 0.0f;
    out[CB_I_OFFICER] = officer == me ? 1.0f : 0.0f;
    out[CB_I_HOLD] = holder == me ? 1.0f : 0.0f;
    out[CB_I_DECLARER] = declarer == me ? 1.0f : 0.0f;
    out[CB_I_ACT] = act == me ? 1.0f : 0.0f;
    out[CB_OVER] = over ? 1.0f : 0.0f;

    /* Debts, summed in the order the view lists them: loans by borrower then lender, payments in order. */
    double owes[MAX_SEATS] = {0}, owed[MAX_SEATS] = {0}, pay[MAX_SEATS] = {0}, paid[MAX_SEATS] = {0};
    if (PyList_Size(lists[L_LOANS]) < n) {
        PyErr_SetString(PyExc_IndexError, "loans has fewer rows than the game has seats");
        goto fail;
    }
    for (long b = 0; b < n; b++) { /* loans[borrower][lender] */
        PyObject *row = PyList_GetItem(lists[L_LOANS], b);
        for (long lender = 0; lender < n; lender++) {
            long amount;
            if (ft_item(row, lender, &amount) < 0) goto fail;
            if (amount) {
                owes[b] += amount / 1000.0;
                owed[lender] += amount / 1000.0;
            }
        }
    }
    for (Py_ssize_t i = 0; payments != NULL && i < PyTuple_Size(payments); i++) {
        PyObject *t = PyTuple_GetItem(payments, i);
        if (!PyTuple_Check(t) || PyTuple_Size(t) != 3) {
            PyErr_SetString(PyExc_TypeError, "a pending payment is not a (payer, payee, amount) tuple");
            goto fail;
        }
        long payer = PyLong_AsLong(PyTuple_GetItem(t, 0));
        long payee = PyLong_AsLong(PyTuple_GetItem(t, 1));
        long amount = PyLong_AsLong(PyTuple_GetItem(t, 2));
        if (PyErr_Occurred()) goto fail;
        if (payer < 0 || payer >= n || payee < 0 || payee >= n) {
            PyErr_SetString(PyExc_ValueError, "a pending payment names a seat out of range");
            goto fail;
        }
        pay[payer] += amount / 1000.0;
        paid[payee] += amount / 1000.0;
    }

    static const int tally_lists[6] = {L_DECLARED, L_CAUGHT, L_CLEARED, L_SEARCHES, L_WAVED, L_INFORMS};
    for (long p = 0; p < n; p++) {
        float *row = out + CB_SEATS + ((p - me + n) % n) * PER_SEAT;
        long cash, retired, been;
        if (ft_item(lists[L_CASH], p, &cash) < 0 || ft_item(lists[L_RETIRED], p, &retired) < 0 ||
            ft_item(lists[L_BEEN], p, &been) < 0)
            goto fail;
        row[CB_SEATS_CASH] = (float)(cash / 1000.0);
        row[CB_SEATS_RETIRED] = (float)retired;
        row[CB_SEATS_BEEN_OFFICER] = (float)been;
        row[CB_SEATS_OFFICER] = officer == p ? 1.0f : 0.0f;
        row[CB_SEATS_HOLDER] = holder == p ? 1.0f : 0.0f;
        row[CB_SEATS_DECLARER] = declarer == p ? 1.0f : 0.0f;
        row[CB_SEATS_TO_ACT] = act == p ? 1.0f : 0.0f;
        for (int k = 0; k < 6; k++) { /* declared .. informs, consecutive in the layout */
            long t;
            if (ft_item(lists[tally_lists[k]], p, &t) < 0) goto fail;
            row[CB_SEATS_DECLARED + k] = (float)(t / 10.0);
        }
        row[CB_SEATS_OWES] = (float)owes[p];
        row[CB_SEATS_OWED] = (float)owed[p];
        row[CB_SEATS_PAY] = (float)pay[p];
        row[CB_SEATS_PAID] = (float)paid[p];
    }

    double revealed[MAX_ARTICLES], claimed[MAX_ARTICLES], held[MAX_ARTICLES];
    if (count_articles(lists[L_SHOWN], revealed) < 0 || count_articles(lists[L_CLAIM], claimed) < 0) goto fail;
    if (mine) {
        if (count_articles(lists[L_LUGGAGE], held) < 0) goto fail;
    } else {
        for (int a = 0; a < n_articles; a++) held[a] = 0.0;
    }
    for (int a = 0; a < n_articles; a++) {
        out[CB_REVEALED + a] = (float)(revealed[a] / counts[a]);
        out[CB_CLAIMED + a] = (float)claimed[a];
        out[CB_HELD + a] = (float)held[a];
        out[CB_UNSEEN + a] = (float)((counts[a] - revealed[a] - held[a]) / counts[a]);
    }

    ft_release(lists, N_LISTS);
    Py_XDECREF(payments);
    return buf;

fail:
    ft_release(lists, N_LISTS);
    Py_XDECREF(payments);
    Py_DECREF(buf);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(n_phases, over_phase, search_phase, broke_phase, article_counts)"},
    {"encode", (PyCFunction)(void (*)(void))encode, METH_FASTCALL, "encode(state, seat) -> bytes of float32: the Contraband observation"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_contraband_fast", "The Contraband observation, compiled (see contraband.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__contraband_fast(void) {
    if (ft_init(&T) < 0) return NULL;
    if ((phase_key = PyUnicode_InternFromString("phase")) == NULL ||
        (owed_key = PyUnicode_InternFromString("owed")) == NULL)
        return NULL;
    return PyModule_Create(&module);
}
