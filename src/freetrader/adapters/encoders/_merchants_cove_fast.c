/* The Merchants Cove observation's Clock rows, Peddler and seat blocks (encoder version 1), compiled.
 *
 * tail(state, me, to_act, market) returns, as a bytearray of native float32,
 * the part of the vector from the Clock rows to the end (Clock rows, the
 * Peddler, the four seat blocks): what changes with most actions, and what
 * the Python path spends most of its time rebuilding. The rest of the vector
 * changes seldom and stays with the Python blocks. Each value is computed in
 * double, as Python computes it, then rounded to float once. The layout is
 * declared in games/merchants_cove/encoder.py (the seat block's offsets come from the header
 * generated from it); configure() hands over the name indices
 * and constants so that they are defined in one place, and checks that the
 * merchant board layouts compiled in below are the ones the merchant modules
 * use. Anything unexpected (a missing field, a short list, an index out of
 * range) raises, and the Python path is the reference the tests compare
 * against.
 */
#include "_fastobs.h"
#include "_merchants_cove_layout.h" /* the offsets, generated from the encoder's declared layout */

#define MAX_SEATS MC_SEAT_COUNT
#define CLOCK 6
#define NGOODS 10
#define N_SPACES 16
#define STATS MC_SEAT_ALCHEMIST /* the seat block before the merchant boards */
#define SEAT MC_SEAT_STRIDE
#define MAX_TF 256
#define MAX_PCARDS 64

/* seat block offsets: seated + merchant, action space, shelf, supply, shields, the rest, the boards */
#define AT_SPACE 5
#define AT_GOODS 21
#define AT_REST 41
static const int board_at[4] = {MC_SEAT_ALCHEMIST, MC_SEAT_BLACKSMITH, MC_SEAT_CAPTAIN, MC_SEAT_CHRONOMANCER};

/* merchant board layouts (mb indices), checked against the merchant modules by configure() */
enum { AL_BAG = 0, AL_SLIDE_N = 5, AL_SLIDE = 6, AL_CAUL = 12, AL_TOXIC = 20, AL_POURS = 21, AL_WAIT = 22 };
enum { BS_UNLOCKED = 0, BS_PIPS = 1, BS_COL = 6, BS_PLACE = 11, BS_HEAT = 16, BS_COAL = 20, BS_PLACED = 22, BS_MAXD = 5 };
enum { CA_AT_SEA = 0, CA_HOLD = 3, CA_TREAS = 18, CA_SPINS = 21, CA_WAIT = 22, CA_SHIPS = 3 };
enum { CH_GRID = 0, CH_SPARE = 9, CH_WORKER = 10, CH_SHARDS = 12, CH_CELLS = 9 };
static const long layout[] = {
    AL_BAG, AL_SLIDE_N, AL_SLIDE, AL_CAUL, AL_TOXIC, AL_POURS, AL_WAIT,
    BS_UNLOCKED, BS_PIPS, BS_COL, BS_PLACE, BS_HEAT, BS_COAL, BS_PLACED, BS_MAXD,
    CA_AT_SEA, CA_HOLD, CA_TREAS, CA_SPINS, CA_WAIT, CA_SHIPS,
    CH_GRID, CH_SPARE, CH_WORKER, CH_SHARDS, CH_CELLS,
    MAX_SEATS, CLOCK, NGOODS, N_SPACES, STATS, SEAT,
};
#define N_LAYOUT ((Py_ssize_t)(sizeof(layout) / sizeof(layout[0])))

static PyObject *merchant_index = NULL, *space_index = NULL; /* str -> int */
static int n_tf = -1, n_pcards = 0;
static unsigned char icons[MAX_TF][5];
static double market_hour = 0.0, peddler_deck = 0.0;

enum { F_SEATS, F_NP, F_GOLD, F_TIME, F_STACK, F_LAST, F_MERCHANT, F_SHELF, F_SUPPLY, F_SHIELDS, F_STAFF, F_CORR,
       F_MB, F_PDECK, F_PCARD, N_FIELDS };
static const char *const field_names[N_FIELDS] = {
    "seats", "np", "gold", "time", "stack", "last", "merchant", "shelf", "supply", "shields", "staff", "corr",
    "mb", "pdeck", "pcard",
};
static FieldTable T = {.n = N_FIELDS, .names = field_names, .game = "Merchants Cove"};

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *merch, *spaces, *icon_seq, *lay;
    if (!PyArg_ParseTuple(args, "O!O!OddiO", &PyDict_Type, &merch, &PyDict_Type, &spaces, &icon_seq, &market_hour,
                          &peddler_deck, &n_pcards, &lay))
        return NULL;
    PyObject *fast = ft_tuple(lay, "the layout must be a sequence");
    if (fast == NULL) return NULL;
    int same = PyTuple_Size(fast) == N_LAYOUT;
    for (Py_ssize_t i = 0; same && i < N_LAYOUT; i++) {
        long v = PyLong_AsLong(PyTuple_GetItem(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        same = v == layout[i];
    }
    Py_DECREF(fast);
    if (!same) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled Merchants Cove layout differs from the Python one: rebuild");
        return NULL;
    }
    if (n_pcards < 0 || n_pcards > MAX_PCARDS || PyDict_Size(spaces) != N_SPACES) {
        PyErr_SetString(PyExc_ValueError, "unexpected Peddler cards or action spaces");
        return NULL;
    }
    fast = ft_tuple(icon_seq, "icons must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PyTuple_Size(fast);
    if (n > MAX_TF) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "at most %d Townsfolk, got %zd", MAX_TF, n);
        return NULL;
    }
    for (Py_ssize_t t = 0; t < n; t++) {
        PyObject *row = PyTuple_GetItem(fast, t);
        memset(icons[t], 0, 5);
        Py_ssize_t k = PyTuple_Check(row) ? PyTuple_Size(row) : -1;
        for (Py_ssize_t i = 0; i < k; i++) {
            long c;
            if (ft_item(row, i, &c) < 0 || c < 0 || c > 4) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a Townsfolk icon out of range");
                Py_DECREF(fast);
                return NULL;
            }
            icons[t][c]++;
        }
        if (k < 0) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_TypeError, "each Townsfolk's icons must be a tuple");
            return NULL;
        }
    }
    Py_DECREF(fast);
    n_tf = (int)n;
    Py_INCREF(merch);
    ft_replace(&merchant_index, merch);
    Py_INCREF(spaces);
    ft_replace(&space_index, spaces);
    Py_RETURN_NONE;
}

/* Item i of list `outer` as a list (borrowed); NULL with an error set. */
static PyObject *sub_list(PyObject *outer, Py_ssize_t i) {
    if (i < 0 || i >= PyList_Size(outer)) {
        PyErr_SetString(PyExc_IndexError, "a list in the state is shorter than its game needs");
        return NULL;
    }
    PyObject *x = PyList_GetItem(outer, i);
    if (!PyList_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "expected a list of lists in the state");
        return NULL;
    }
    return x;
}

/* Values [at, at + k) of a list as floats at out. */
static int floats(PyObject *list, Py_ssize_t at, int k, float *out) {
    for (int i = 0; i < k; i++) {
        long v;
        if (ft_item(list, at + i, &v) < 0) return -1;
        out[i] = (float)(double)v;
    }
    return 0;
}

/* A one-hot of n slots at out: index `none` (or, for -1 too where allow_neg) leaves them zero. */
static int hot(long i, long n, long none, float *out) {
    if (i == none) return 0;
    if (i < 0 || i >= n) {
        PyErr_Format(PyExc_ValueError, "index %ld out of range in a merchant board", i);
        return -1;
    }
    out[i] = 1.0f;
    return 0;
}

/* The name's index in a dict, or `none` for an empty name; -2 with an error set. */
static long name_index(PyObject *index, PyObject *name, long none) {
    int truth = PyObject_IsTrue(name);
    if (truth < 0) return -2;
    if (!truth) return none;
    PyObject *v = PyDict_GetItemWithError(index, name); /* borrowed */
    if (v == NULL) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, name);
        return -2;
    }
    long i = PyLong_AsLong(v);
    if (i == -1 && PyErr_Occurred()) return -2;
    return i;
}

static int board(long m, PyObject *b, float *o) {
    long v;
    switch (m) {
    case 0: { /* Alchemist */
        if (floats(b, AL_BAG, 5, o) < 0 || ft_item(b, AL_SLIDE_N, &v) < 0) return -1;
        if (v < 0 || v > 6) {
            PyErr_Format(PyExc_ValueError, "%ld marbles on the Alchemist's slide", v);
            return -1;
        }
        for (long i = 0; i < v; i++) {
            long c;
            if (ft_item(b, AL_SLIDE + i, &c) < 0 || hot(c, 5, 5, o + 5 + 5 * i) < 0) return -1;
        }
        return floats(b, AL_CAUL, 8, o + 35) < 0 || floats(b, AL_TOXIC, 1, o + 43) < 0 ||
               floats(b, AL_POURS, 1, o + 44) < 0 || floats(b, AL_WAIT, 1, o + 45) < 0 ? -1 : 0;
    }
    case 1: { /* Blacksmith */
        if (ft_item(b, BS_UNLOCKED, &v) < 0) return -1;
        if (v < 0 || v > BS_MAXD) {
            PyErr_Format(PyExc_ValueError, "%ld Blacksmith dice unlocked", v);
            return -1;
        }
        for (long i = 0; i < v; i++) {
            long pips, col, place;
            float *d = o + 10 * i;
            if (ft_item(b, BS_PIPS + i, &pips) < 0 || ft_item(b, BS_COL + i, &col) < 0 ||
                ft_item(b, BS_PLACE + i, &place) < 0)
                return -1;
            d[0] = 1.0f;
            d[1] = (float)(pips / 6.0);
            if (hot(col < 0 ? 4 : col, 4, 4, d + 2) < 0 || hot(place < 0 ? 4 : place, 4, 4, d + 6) < 0) return -1;
        }
        o += 10 * BS_MAXD;
        for (int c = 0; c < 4; c++) {
            if (ft_item(b, BS_HEAT + c, &v) < 0) return -1;
            o[c] = (float)(v / 10.0);
        }
        return floats(b, BS_COAL, 1, o + 4) < 0 || floats(b, BS_PLACED, 1, o + 5) < 0 ? -1 : 0;
    }
    case 2: /* Captain */
        for (int s = 0; s < CA_SHIPS; s++)
            if (floats(b, CA_AT_SEA + s, 1, o + 6 * s) < 0 || floats(b, CA_HOLD + 5 * s, 5, o + 6 * s + 1) < 0)
                return -1;
        return floats(b, CA_TREAS, 1, o + 18) < 0 || floats(b, CA_SPINS, 1, o + 19) < 0 ||
               floats(b, CA_WAIT, 1, o + 20) < 0 ? -1 : 0;
    case 3: /* Chronomancer */
        for (int i = 0; i < CH_CELLS + 1; i++) /* the grid, then the spare tile */
            if (ft_item(b, CH_GRID + i, &v) < 0 || hot(v, 5, 5, o + 5 * i) < 0) return -1;
        for (int w = 0; w < 2; w++)
            if (ft_item(b, CH_WORKER + w, &v) < 0 || hot(v, CH_CELLS, CH_CELLS, o + 50 + CH_CELLS * w) < 0) return -1;
        return floats(b, CH_SHARDS, 4, o + 68);
    }
    PyErr_Format(PyExc_ValueError, "merchant index %ld out of range", m);
    return -1;
}

static PyObject *tail(PyObject *self, PyObject *args) {
    PyObject *state, *market;
    long me, to_act;
    if (!PyArg_ParseTuple(args, "OllO", &state, &me, &to_act, &market)) return NULL;
    if (n_tf < 0) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (!PyList_Check(market) && !PyTuple_Check(market)) {
        PyErr_SetString(PyExc_TypeError, "the Market order must be a list or a tuple");
        return NULL;
    }
    ft_bind(&T, state);
    int err = 0;
    long n = ft_long(&T, state, F_SEATS, &err);
    long np = ft_long(&T, state, F_NP, &err);
    long pcard = ft_long(&T, state, F_PCARD, &err);
    if (err) return NULL;
    if (n < 1 || n > MAX_SEATS || np < n || np > n + 1 || me < 0 || me >= n) {
        PyErr_Format(PyExc_ValueError, "bad seat %ld for %ld seats and %ld merchants", me, n, np);
        return NULL;
    }
    int ped = np > n;
    Py_ssize_t size = (MAX_SEATS + 1) * CLOCK + 13 + n_pcards + MAX_SEATS * SEAT;
    float *out;
    PyObject *buf = ft_floats(size, &out);
    if (buf == NULL) return NULL;

    enum { L_GOLD, L_TIME, L_STACK, L_LAST, L_MERCHANT, L_SHELF, L_SUPPLY, L_SHIELDS, L_STAFF, L_CORR, L_MB, L_PDECK,
           N_LISTS };
    static const int list_fields[N_LISTS] = {F_GOLD, F_TIME, F_STACK, F_LAST, F_MERCHANT, F_SHELF, F_SUPPLY,
                                             F_SHIELDS, F_STAFF, F_CORR, F_MB, F_PDECK};
    PyObject *lists[N_LISTS] = {NULL};
    if (ft_lists(&T, state, list_fields, N_LISTS, lists) < 0) goto fail;

    /* The Clock rows: the order sorts by (hour, -stack), then seat, as the view does. */
    long t[MAX_SEATS + 1], k[MAX_SEATS + 1];
    for (long p = 0; p < np; p++)
        if (ft_item(lists[L_TIME], p, &t[p]) < 0 || ft_item(lists[L_STACK], p, &k[p]) < 0) goto fail;
    Py_ssize_t nm = PyList_Check(market) ? PyList_Size(market) : PyTuple_Size(market);
    for (long p = 0; p < np; p++) {
        float *row = out + (p < n ? (p - me + n) % n : MAX_SEATS) * CLOCK;
        long gold, rank = 0;
        if (ft_item(lists[L_GOLD], p, &gold) < 0) goto fail;
        for (long q = 0; q < np; q++)
            rank += t[q] < t[p] || (t[q] == t[p] && (k[q] > k[p] || (k[q] == k[p] && q < p)));
        row[0] = (float)(gold / 100.0);
        row[1] = (float)(t[p] / market_hour);
        row[2] = (float)(rank / (double)MAX_SEATS);
        row[3] = p == to_act && p < n ? 1.0f : 0.0f;
        for (Py_ssize_t i = 0; i < nm; i++) {
            long x;
            if (ft_item(market, i, &x) < 0) goto fail;
            if (x == p) {
                row[4] = 1.0f;
                row[5] = (float)(i / (double)MAX_SEATS);
                break;
            }
        }
    }
    float *o = out + (MAX_SEATS + 1) * CLOCK;

    if (ped) { /* the Peddler */
        PyObject *shelf = sub_list(lists[L_SHELF], n), *corr = sub_list(lists[L_CORR], n);
        if (shelf == NULL || corr == NULL || floats(shelf, 0, NGOODS, o + 1) < 0) goto fail;
        o[0] = 1.0f;
        o[11] = (float)(double)PyList_Size(corr);
        o[12] = (float)(PyList_Size(lists[L_PDECK]) / peddler_deck);
        if (pcard >= n_pcards) {
            PyErr_SetString(PyExc_IndexError, "the Peddler card is out of range");
            goto fail;
        }
        if (pcard >= 0) o[13 + pcard] = 1.0f;
    }
    o += 13 + n_pcards;

    for (long p = 0; p < n; p++) {
        float *s = o + ((p - me + n) % n) * SEAT;
        if (!PyList_Check(lists[L_MERCHANT]) || p >= PyList_Size(lists[L_MERCHANT]) ||
            p >= PyList_Size(lists[L_LAST])) {
            PyErr_SetString(PyExc_IndexError, "a list in the state is shorter than its game needs");
            goto fail;
        }
        long m = name_index(merchant_index, PyList_GetItem(lists[L_MERCHANT], p), -1);
        long a = name_index(space_index, PyList_GetItem(lists[L_LAST], p), -1);
        if (m == -2 || a == -2) goto fail;
        s[0] = 1.0f;
        if ((m >= 0 && hot(m, 4, -1, s + 1) < 0) || (a >= 0 && hot(a, N_SPACES, -1, s + AT_SPACE) < 0)) goto fail;
        PyObject *shelf = sub_list(lists[L_SHELF], p), *supply = sub_list(lists[L_SUPPLY], p);
        PyObject *shields = sub_list(lists[L_SHIELDS], p), *staff = sub_list(lists[L_STAFF], p);
        PyObject *corr = sub_list(lists[L_CORR], p);
        if (shelf == NULL || supply == NULL || shields == NULL || staff == NULL || corr == NULL) goto fail;
        if (floats(shelf, 0, NGOODS, s + AT_GOODS) < 0 || floats(supply, 0, NGOODS, s + AT_GOODS + NGOODS) < 0 ||
            floats(shields, 0, 4, s + AT_REST) < 0)
            goto fail;
        Py_ssize_t nstaff = PyList_Size(staff);
        long got[5] = {0};
        for (Py_ssize_t i = 0; i < nstaff; i++) {
            long x;
            if (ft_item(staff, i, &x) < 0) goto fail;
            if (x < 0 || x >= n_tf) {
                PyErr_Format(PyExc_ValueError, "Townsfolk %ld out of range", x);
                goto fail;
            }
            for (int c = 0; c < 5; c++) got[c] += icons[x][c];
        }
        s[AT_REST + 4] = (float)(double)nstaff;
        for (int c = 0; c < 5; c++) s[AT_REST + 5 + c] = (float)(double)got[c];
        s[AT_REST + 10] = (float)(double)PyList_Size(corr);
        if (m >= 0) {
            PyObject *b = sub_list(lists[L_MB], p);
            if (b == NULL || board(m, b, s + board_at[m]) < 0) goto fail;
        }
    }

    ft_release(lists, N_LISTS);
    return buf;

fail:
    ft_release(lists, N_LISTS);
    Py_DECREF(buf);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(merchant_index, space_index, icons, market_hour, peddler_deck, n_peddler_cards, layout)"},
    {"tail", tail, METH_VARARGS,
     "tail(state, me, to_act, market) -> bytearray of float32: the Clock rows, the Peddler and the seat blocks"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_merchants_cove_fast",
    "The Merchants Cove observation's Clock rows, Peddler and seat blocks, compiled (see merchants_cove.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__merchants_cove_fast(void) {
    if (ft_init(&T) < 0) return NULL;
    return PyModule_Create(&module);
}
