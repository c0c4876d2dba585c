/* The Merchants Cove observation's Clock rows, Peddler and seat blocks (encoder version 1), compiled.
 *
 * tail(state, me, to_act, market) returns, as bytes of native float32,
 * the part of the vector from the Clock rows to the end (Clock rows, the
 * Peddler, the four seat blocks): what changes with most actions, and what
 * the Python path spends most of its time rebuilding. The rest of the vector
 * changes seldom and stays with the Python blocks. Each value is computed in
 * double, as Python computes it, then rounded to float once. The layout is
 * declared in games/merchants_cove/encoder.py: every offset, the merchant boards'
 * pieces included, comes from the header generated from it. A merchant board is
 * read by its declared field names (merchants/*.py ``Board`` subclasses);
 * configure() hands over the name indices and constants so that they are
 * defined in one place, and checks that every board field read below is one
 * its merchant declares. Anything unexpected (a missing field, a short list,
 * an index out of range) raises, and the Python path is the reference the
 * tests compare against.
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

/* the merchant boards' sizes the observation has room for (checked against the Python ones by configure()) */
#define MAX_SLIDE 6
#define MAX_DICE 5
#define SHIPS 3
#define CELLS 9
static const long layout[] = {MAX_SLIDE, MAX_DICE, SHIPS, CELLS, MAX_SEATS, CLOCK, NGOODS, N_SPACES, STATS, SEAT};
#define N_LAYOUT ((Py_ssize_t)(sizeof(layout) / sizeof(layout[0])))

/* The board fields read below, by merchant (in merchant-index order), each one its merchant declares. */
enum { B_BAG, B_SLIDE, B_CAULDRON, B_ICHOR, B_TOXIC, B_POURS, B_WAITING, B_UNLOCKED, B_PIPS, B_COLOUR, B_FURNACE,
       B_HEAT, B_COAL, B_PLACED, B_AT_SEA, B_HOLD, B_TREASURES, B_SPINS, B_GRID, B_SPARE, B_WORKERS, B_SHARDS,
       N_BOARD_FIELDS };
static const char *const board_field_names[N_BOARD_FIELDS] = {
    "bag", "slide", "cauldron", "ichor", "toxic", "pours", "waiting", "unlocked", "pips", "colour", "furnace",
    "heat", "coal", "placed", "at_sea", "hold", "treasures", "spins", "grid", "spare", "workers", "shards",
};
static const int board_field_merchant[N_BOARD_FIELDS] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
static PyObject *board_field[N_BOARD_FIELDS]; /* interned names */

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

/* Each board field read here is among its merchant's declared ones (a sequence of name tuples, by merchant). */
static int check_board_fields(PyObject *declared) {
    PyObject *fast = ft_tuple(declared, "the board fields must be a sequence");
    if (fast == NULL) return -1;
    int ok = PyTuple_Size(fast) == 4;
    for (int f = 0; ok && f < N_BOARD_FIELDS; f++) {
        PyObject *names = PyTuple_GetItem(fast, board_field_merchant[f]);
        int has = PySequence_Contains(names, board_field[f]);
        if (has < 0) { Py_DECREF(fast); return -1; }
        ok = has;
    }
    Py_DECREF(fast);
    if (!ok) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled Merchants Cove board fields differ from the declared ones: "
                                            "rebuild");
        return -1;
    }
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *merch, *spaces, *icon_seq, *lay, *declared;
    if (!PyArg_ParseTuple(args, "O!O!OddiOO", &PyDict_Type, &merch, &PyDict_Type, &spaces, &icon_seq, &market_hour,
                          &peddler_deck, &n_pcards, &lay, &declared))
        return NULL;
    if (check_board_fields(declared) < 0) return NULL;
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

/* A board field: a list (borrowed from *keep, which holds the new reference) or a long. */
static PyObject *field_list(PyObject *b, int f, PyObject **keep) {
    PyObject *v = PyObject_GetAttr(b, board_field[f]);
    if (v == NULL) return NULL;
    *keep = v;
    if (!PyList_Check(v)) {
        PyErr_Format(PyExc_TypeError, "the merchant board's %s must be a list", board_field_names[f]);
        return NULL;
    }
    return v;
}

static int field_long(PyObject *b, int f, long *out) {
    PyObject *v = PyObject_GetAttr(b, board_field[f]);
    if (v == NULL) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* Board field f (a list of k ints) as floats at out. */
static int field_floats(PyObject *b, int f, int k, float *out) {
    PyObject *keep = NULL, *v = field_list(b, f, &keep);
    int rc = v == NULL ? -1 : floats(v, 0, k, out);
    Py_XDECREF(keep);
    return rc;
}

/* Board field f (an int) as a float at out. */
static int field_float(PyObject *b, int f, float *out) {
    long v;
    if (field_long(b, f, &v) < 0) return -1;
    *out = (float)(double)v;
    return 0;
}

/* The seat block s's piece of merchant m's board (the block's other boards stay zero). */
static int board(long m, PyObject *b, float *s) {
    PyObject *keep = NULL, *v;
    long x;
    int rc = -1;
    switch (m) {
    case 0: { /* Alchemist */
        if (field_floats(b, B_BAG, 5, s + MC_SEAT_ALCHEMIST) < 0 || (v = field_list(b, B_SLIDE, &keep)) == NULL) break;
        Py_ssize_t n = PyList_Size(v);
        if (n > MAX_SLIDE) {
            PyErr_Format(PyExc_ValueError, "%zd marbles on the Alchemist's slide", n);
            break;
        }
        Py_ssize_t i = 0;
        for (; i < n; i++)
            if (ft_item(v, i, &x) < 0 || hot(x, 5, 5, s + MC_SEAT_ALCHEMIST_SLIDE + 5 * i) < 0) break;
        if (i < n || field_floats(b, B_CAULDRON, 4, s + MC_SEAT_ALCHEMIST_CAULDRONS) < 0 ||
            field_floats(b, B_ICHOR, 4, s + MC_SEAT_ALCHEMIST_ICHOR) < 0 ||
            field_float(b, B_TOXIC, s + MC_SEAT_ALCHEMIST_TOXIC) < 0 ||
            field_float(b, B_POURS, s + MC_SEAT_ALCHEMIST_POURS) < 0 ||
            field_float(b, B_WAITING, s + MC_SEAT_ALCHEMIST_WAITING) < 0)
            break;
        rc = 0;
        break;
    }
    case 1: { /* Blacksmith: per die unlocked, pips/6, colour one-hot, furnace one-hot */
        PyObject *k2 = NULL, *k3 = NULL, *pips, *col, *furn;
        if (field_long(b, B_UNLOCKED, &x) < 0) break;
        if (x < 0 || x > MAX_DICE) {
            PyErr_Format(PyExc_ValueError, "%ld Blacksmith dice unlocked", x);
            break;
        }
        if ((pips = field_list(b, B_PIPS, &keep)) != NULL && (col = field_list(b, B_COLOUR, &k2)) != NULL &&
            (furn = field_list(b, B_FURNACE, &k3)) != NULL) {
            long i = 0;
            for (; i < x; i++) {
                long p, c, f;
                float *d = s + MC_SEAT_BLACKSMITH + 10 * i;
                if (ft_item(pips, i, &p) < 0 || ft_item(col, i, &c) < 0 || ft_item(furn, i, &f) < 0) break;
                d[0] = 1.0f;
                d[1] = (float)(p / 6.0);
                if (hot(c < 0 ? 4 : c, 4, 4, d + 2) < 0 || hot(f < 0 ? 4 : f, 4, 4, d + 6) < 0) break;
            }
            rc = i < x ? -1 : 0;
        }
        Py_XDECREF(k2);
        Py_XDECREF(k3);
        if (rc < 0) break;
        rc = -1;
        Py_CLEAR(keep);
        if ((v = field_list(b, B_HEAT, &keep)) == NULL) break;
        int c = 0;
        for (; c < 4; c++) {
            if (ft_item(v, c, &x) < 0) break;
            s[MC_SEAT_BLACKSMITH_HEAT + c] = (float)(x / 10.0);
        }
        if (c < 4 || field_float(b, B_COAL, s + MC_SEAT_BLACKSMITH_COAL) < 0 ||
            field_float(b, B_PLACED, s + MC_SEAT_BLACKSMITH_PLACED) < 0)
            break;
        rc = 0;
        break;
    }
    case 2: { /* Captain: per ship at sea, then its hold (4 colours, treasure) */
        static const int ship_at[SHIPS] = {MC_SEAT_CAPTAIN, MC_SEAT_CAPTAIN_SHIP_2, MC_SEAT_CAPTAIN_SHIP_3};
        PyObject *k2 = NULL, *sea, *hold;
        if ((sea = field_list(b, B_AT_SEA, &keep)) == NULL || (hold = field_list(b, B_HOLD, &k2)) == NULL) {
            Py_XDECREF(k2);
            break;
        }
        int i = 0;
        for (; i < SHIPS; i++) {
            PyObject *h = sub_list(hold, i);
            if (h == NULL || floats(sea, i, 1, s + ship_at[i]) < 0 || floats(h, 0, 5, s + ship_at[i] + 1) < 0) break;
        }
        Py_XDECREF(k2);
        if (i < SHIPS || field_float(b, B_TREASURES, s + MC_SEAT_CAPTAIN_TREASURES) < 0 ||
            field_float(b, B_SPINS, s + MC_SEAT_CAPTAIN_SPINS) < 0 ||
            field_float(b, B_WAITING, s + MC_SEAT_CAPTAIN_WAITING) < 0)
            break;
        rc = 0;
        break;
    }
    case 3: { /* Chronomancer: grid cells then the spare tile one-hot, each worker's cell one-hot, shards */
        float *o = s + MC_SEAT_CHRONOMANCER;
        if ((v = field_list(b, B_GRID, &keep)) == NULL) break;
        int i = 0;
        for (; i < CELLS; i++)
            if (ft_item(v, i, &x) < 0 || hot(x, 5, 5, o + 5 * i) < 0) break;
        if (i < CELLS || field_long(b, B_SPARE, &x) < 0 || hot(x, 5, 5, o + 5 * CELLS) < 0) break;
        Py_CLEAR(keep);
        if ((v = field_list(b, B_WORKERS, &keep)) == NULL) break;
        for (i = 0; i < 2; i++)
            if (ft_item(v, i, &x) < 0 || hot(x, CELLS, CELLS, o + 5 * (CELLS + 1) + CELLS * i) < 0) break;
        if (i < 2 || field_floats(b, B_SHARDS, 4, s + MC_SEAT_CHRONOMANCER_SHARDS) < 0) break;
        rc = 0;
        break;
    }
    default:
        PyErr_Format(PyExc_ValueError, "merchant index %ld out of range", m);
    }
    Py_XDECREF(keep);
    return rc;
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
        if ((m >= 0 && hot(m, 4, -1, s + MC_SEAT_MERCHANT) < 0) ||
            (a >= 0 && hot(a, N_SPACES, -1, s + MC_SEAT_SPACE) < 0))
            goto fail;
        PyObject *shelf = sub_list(lists[L_SHELF], p), *supply = sub_list(lists[L_SUPPLY], p);
        PyObject *shields = sub_list(lists[L_SHIELDS], p), *staff = sub_list(lists[L_STAFF], p);
        PyObject *corr = sub_list(lists[L_CORR], p);
        if (shelf == NULL || supply == NULL || shields == NULL || staff == NULL || corr == NULL) goto fail;
        if (floats(shelf, 0, NGOODS, s + MC_SEAT_GOODS) < 0 || floats(supply, 0, NGOODS, s + MC_SEAT_SUPPLY) < 0 ||
            floats(shields, 0, 4, s + MC_SEAT_SHIELDS) < 0)
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
        s[MC_SEAT_HIRED] = (float)(double)nstaff;
        for (int c = 0; c < 5; c++) s[MC_SEAT_ICONS + c] = (float)(double)got[c];
        s[MC_SEAT_CORRUPTION] = (float)(double)PyList_Size(corr);
        if (m >= 0) {
            if (p >= PyList_Size(lists[L_MB])) {
                PyErr_SetString(PyExc_IndexError, "a list in the state is shorter than its game needs");
                goto fail;
            }
            if (board(m, PyList_GetItem(lists[L_MB], p), s) < 0) goto fail;
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
     "configure(merchant_index, space_index, icons, market_hour, peddler_deck, n_peddler_cards, layout, "
     "board_fields)"},
    {"tail", tail, METH_VARARGS,
     "tail(state, me, to_act, market) -> bytes of float32: the Clock rows, the Peddler and the seat blocks"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_merchants_cove_fast",
    "The Merchants Cove observation's Clock rows, Peddler and seat blocks, compiled (see merchants_cove.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__merchants_cove_fast(void) {
    if (ft_init(&T) < 0) return NULL;
    for (int f = 0; f < N_BOARD_FIELDS; f++)
        if ((board_field[f] = PyUnicode_InternFromString(board_field_names[f])) == NULL) return NULL;
    return PyModule_Create(&module);
}
