/* The Cornish Smuggler observation (encoder version 4), compiled.
 *
 * encode(state, seat, phase, actor, land_loc, land_sel) returns the whole
 * vector as bytes of native float32, exactly the bytes of the Python
 * path in games/cornish_smuggler/encoder.py, which stays the reference and
 * the fallback (tests compare the two bit for bit). The frame-derived values
 * (phase, actor, the landing under way) come from Python; everything else is
 * read from the state's fields. The offsets come from the header generated
 * from the encoder's declared layout; configure() hands over the id-to-slot
 * tables (so that they are defined once, in Python) and the layout the Python
 * side declares, and refuses one that differs from the header compiled in.
 * Each value is computed in double, as Python computes it, then rounded to
 * float once. Table look-ups wrap a negative index as Python's list indexing
 * does, and raise IndexError past the end; one-hots ignore an index out of
 * range, as one_hot() does.
 */
#include "_fastobs.h"
#include "_cornish_smuggler_layout.h" /* the offsets, generated from the encoder's declared layout */

#define MAXT 512 /* the longest table */
#define MAX_SEATS CS_SEATS_COUNT
#define G CS_GOODS_COUNT
#define N_WHERE (CS_GOODS_OWNER - CS_GOODS_WHERE) /* goods places, "out" included */
#define NO CS_OFFICERS_COUNT
#define L CS_LANDING_AT_SIZE
#define H CS_YOUR_DRAWN_SIZE
#define X CS_YOUR_SECRETS_SIZE
#define B CS_SHIPS_TO_CHOOSE_SIZE
#define W CS_STOREHOUSES_TO_CHOOSE_SIZE
#define E1 (CS_SEATS_COUNTERS - CS_SEATS_SHIP_AT) /* sea nodes + none */
#define M (CS_GOODS_SIZE - CS_GOODS_MERCHANT)
#define STACKS CS_STACKS_SIZE

typedef struct {
    long v[MAXT];
    Py_ssize_t n;
} Table;

enum { TB_SHIP, TB_SEA, TB_LOC, TB_CHAR, TB_FACE, TB_STORE, TB_SECRET, TB_GOODS, TB_DECK, TB_WHERE, TB_DISCOVERY, TB_BRIBE,
       TB_MERCH_PLACE, TB_STORE_PLACE, TB_LOC_PLACE, TB_LANDING_PHASES, N_TABLES };
static Table tables[N_TABLES];
static double goods_size[G];
static long over_phase = -1, track_end = 1, wheel_size = 1;
static int configured = 0;

/* The header's layout, in the order configure() receives the Python one. */
static const long layout[] = {
    CS_SIZE, CS_PHASE, CS_PHASE_SIZE, CS_TURN, CS_ENDING, CS_FIRST_PLAYER, CS_TO_ACT, CS_SEATS, CS_SEATS_COUNT,
    CS_SEATS_STRIDE, CS_SEATS_GOLD, CS_SEATS_INFLUENCE, CS_SEATS_REPUTATION, CS_SEATS_HOLD, CS_SEATS_SECRETS,
    CS_SEATS_SHIP, CS_SEATS_SHIP_AT, CS_SEATS_COUNTERS, CS_SEATS_CHARACTERS, CS_SEATS_STOREHOUSES, CS_PASSED,
    CS_GOODS, CS_GOODS_COUNT, CS_GOODS_STRIDE, CS_GOODS_WHERE, CS_GOODS_OWNER, CS_GOODS_LOCATION,
    CS_GOODS_STOREHOUSE, CS_GOODS_MERCHANT, CS_GOODS_SIZE, CS_OFFICERS, CS_OFFICERS_COUNT, CS_OFFICERS_STRIDE,
    CS_OFFICERS_AT, CS_OFFICERS_BRIBED_BY, CS_TRACK, CS_DISCOVERY, CS_BRIBE, CS_WHEEL, CS_BANK, CS_FACE_UP,
    CS_FACE_UP_SIZE, CS_STACKS, CS_STACKS_SIZE, CS_DISCARDED, CS_SECRETS_DECK, CS_SHIPS_TO_CHOOSE,
    CS_SHIPS_TO_CHOOSE_SIZE, CS_STOREHOUSES_TO_CHOOSE, CS_STOREHOUSES_TO_CHOOSE_SIZE, CS_DRAWING, CS_DRAWN_FROM,
    CS_LANDING, CS_LANDING_AT, CS_LANDING_AT_SIZE, CS_LANDING_GOODS, CS_LANDING_GOODS_SIZE, CS_YOUR_SECRETS,
    CS_YOUR_SECRETS_SIZE, CS_YOUR_DRAWN, CS_YOUR_DRAWN_SIZE,
};
#define N_LAYOUT ((Py_ssize_t)(sizeof(layout) / sizeof(layout[0])))

enum { F_SEATS, F_TURN, F_ENDING, F_FIRST, F_GOLD, F_INFL, F_REP, F_HOLD, F_SECRETS, F_SHIP, F_SHIP_AT, F_COUNTERS,
       F_CHARS, F_STORES, F_PASSED, F_G_WHERE, F_G_AT, F_G_OWNER, F_OFF_AT, F_OFF_BRIBE, F_TRACK, F_WHEEL, F_BANK,
       F_FACEUP, F_STACKS, F_CHAR_DISCARD, F_SDECK, F_SHIPS_LEFT, F_STORES_LEFT, F_DRAWN, F_DRAWN_DECKS,
       N_FIELDS };
static const char *const field_names[N_FIELDS] = {
    "seats", "turn", "ending", "first", "gold", "infl", "rep", "hold", "secrets", "ship_card", "ship_at",
    "counters", "chars", "stores", "passed", "g_where", "g_at", "g_owner", "off_at", "off_bribe", "track", "wheel",
    "bank", "faceup", "stacks", "char_discard", "sdeck", "ships_left", "stores_left", "drawn", "drawn_decks",
};
static FieldTable T = {.n = N_FIELDS, .names = field_names, .game = "Cornish Smuggler"};

/* A sequence of ints (None -> -1) into a table. */
static int load_table(PyObject *seq, Table *t) {
    PyObject *fast = ft_tuple(seq, "a Cornish Smuggler table must be a sequence");
    if (fast == NULL) return -1;
    Py_ssize_t n = PyTuple_Size(fast);
    if (n > MAXT) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "a Cornish Smuggler table of %zd entries (at most %d)", n, MAXT);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GetItem(fast, i);
        long v = x == Py_None ? -1 : PyLong_AsLong(x);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        t->v[i] = v;
    }
    t->n = n;
    Py_DECREF(fast);
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *seqs[N_TABLES], *sizes, *lay;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOlllO", &seqs[0], &seqs[1], &seqs[2], &seqs[3], &seqs[4], &seqs[5],
                          &seqs[6], &seqs[7], &seqs[8], &seqs[9], &seqs[10], &seqs[11], &seqs[12], &seqs[13],
                          &seqs[14], &seqs[15], &sizes, &over_phase, &track_end, &wheel_size, &lay))
        return NULL;
    PyObject *fast = ft_tuple(lay, "the layout must be a sequence");
    if (fast == NULL) return NULL;
    int same = PyTuple_Size(fast) == N_LAYOUT;
    for (Py_ssize_t i = 0; same && i < N_LAYOUT; i++) {
        long v = PyLong_AsLong(PyTuple_GetItem(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        same = v == layout[i];
    }
    Py_DECREF(fast);
    if (!same) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled Cornish Smuggler layout differs from the Python one: rebuild");
        return NULL;
    }
    for (int t = 0; t < N_TABLES; t++)
        if (load_table(seqs[t], &tables[t]) < 0) return NULL;
    if (tables[TB_WHERE].n != N_WHERE || tables[TB_MERCH_PLACE].n % 3 || tables[TB_STORE_PLACE].n % 3 ||
        tables[TB_LOC_PLACE].n % 3 || track_end < 1 || wheel_size < 1) {
        PyErr_SetString(PyExc_ValueError, "unexpected Cornish Smuggler tables");
        return NULL;
    }
    fast = ft_tuple(sizes, "the goods sizes must be a sequence");
    if (fast == NULL) return NULL;
    if (PyTuple_Size(fast) != G) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "expected %d goods sizes", G);
        return NULL;
    }
    for (Py_ssize_t g = 0; g < G; g++) {
        goods_size[g] = PyFloat_AsDouble(PyTuple_GetItem(fast, g));
        if (goods_size[g] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    configured = 1;
    Py_RETURN_NONE;
}

/* tables[t][i] as Python indexes a list: a negative i wraps; past either end raises. */
static int look(int t, long i, long *out) {
    const Table *tb = &tables[t];
    long k = i < 0 ? i + (long)tb->n : i;
    if (k < 0 || k >= (long)tb->n) {
        PyErr_Format(PyExc_IndexError, "Cornish Smuggler index %ld out of range of a table of %zd", i, tb->n);
        return -1;
    }
    *out = tb->v[k];
    return 0;
}

/* one_hot(): a 1 at i when 0 <= i < n, else nothing. */
static inline void hot(float *o, long i, long n) {
    if (i >= 0 && i < n) o[i] = 1.0f;
}

/* _counts(): +1 at each item's slot (table t; -1 is "not shown"); a slot past n raises, as Python's list does. */
static int counts(float *o, PyObject *items, int t, long n) {
    Py_ssize_t k = PyList_Check(items) ? PyList_Size(items) : PyTuple_Check(items) ? PyTuple_Size(items) : -1;
    if (k < 0) {
        PyErr_SetString(PyExc_TypeError, "expected a list in the Cornish Smuggler state");
        return -1;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        long x, slot;
        if (ft_item(items, j, &x) < 0 || look(t, x, &slot) < 0) return -1;
        if (slot < 0) continue;
        if (slot >= n) {
            PyErr_SetString(PyExc_IndexError, "a Cornish Smuggler slot past its block");
            return -1;
        }
        o[slot] += 1.0f;
    }
    return 0;
}

/* (x - me) % n as Python computes it, or `none` for a negative x. */
static inline long rel(long x, long me, long n, long none) {
    return x < 0 ? none : ((x - me) % n + n) % n;
}

static Py_ssize_t seq_len(PyObject *x) {
    if (PyList_Check(x)) return PyList_Size(x);
    if (PyTuple_Check(x)) return PyTuple_Size(x);
    PyErr_SetString(PyExc_TypeError, "expected a list in the Cornish Smuggler state");
    return -1;
}

/* Item i of a list of lists (borrowed). */
static PyObject *row(PyObject *outer, Py_ssize_t i) {
    if (!PyList_Check(outer) || i < 0 || i >= PyList_Size(outer)) {
        PyErr_SetString(PyExc_IndexError, "a list in the Cornish Smuggler state is shorter than its game needs");
        return NULL;
    }
    return PyList_GetItem(outer, i);
}

/* The goods piece's place: the slots of the location, storehouse and merchant the view shows (-1: none). */
static int place(long where, long at, long slots[3]) {
    int t = where == 0 ? TB_MERCH_PLACE : where == 3 ? TB_STORE_PLACE : TB_LOC_PLACE;
    slots[0] = slots[1] = slots[2] = -1;
    if (where == 1 || where == 6) return 0; /* on a ship: the view shows the seat, not a place; out: none */
    const Table *tb = &tables[t];
    long n = (long)tb->n / 3, k = at < 0 ? at + n : at;
    if (k < 0 || k >= n) {
        PyErr_Format(PyExc_IndexError, "a goods piece at %ld, out of range", at);
        return -1;
    }
    for (int j = 0; j < 3; j++) slots[j] = tb->v[3 * k + j];
    return 0;
}

static PyObject *encode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *seat_obj, *land_sel;
    long phase, actor, land_loc;
    if (!PyArg_ParseTuple(args, "OOlllO", &state, &seat_obj, &phase, &actor, &land_loc, &land_sel)) return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    ft_bind(&T, state);
    int err = 0;
    long n = ft_long(&T, state, F_SEATS, &err);
    if (err) return NULL;
    long seat = -1;
    if (seat_obj != Py_None) {
        seat = PyLong_AsLong(seat_obj);
        if (seat == -1 && PyErr_Occurred()) return NULL;
    }
    if (n < 1 || n > MAX_SEATS || (seat_obj != Py_None && (seat < 0 || seat >= n))) {
        PyErr_Format(PyExc_ValueError, "bad seat %ld for %ld seats", seat, n);
        return NULL;
    }
    long me = seat < 0 ? 0 : seat;
    long turn = ft_long(&T, state, F_TURN, &err), first = ft_long(&T, state, F_FIRST, &err);
    long ending = ft_long(&T, state, F_ENDING, &err), track = ft_long(&T, state, F_TRACK, &err);
    long wheel = ft_long(&T, state, F_WHEEL, &err), bank = ft_long(&T, state, F_BANK, &err);
    if (err) return NULL;
    float *out;
    PyObject *buf = ft_floats(CS_SIZE, &out);
    if (buf == NULL) return NULL;

    enum { L_GOLD, L_INFL, L_REP, L_HOLD, L_SECRETS, L_SHIP, L_SHIP_AT, L_COUNTERS, L_CHARS, L_STORES, L_PASSED,
           L_G_WHERE, L_G_AT, L_G_OWNER, L_OFF_AT, L_OFF_BRIBE, L_FACEUP, L_STACKS, L_CHAR_DISCARD, L_SDECK,
           L_SHIPS_LEFT, L_STORES_LEFT, L_DRAWN, L_DRAWN_DECKS, N_LISTS };
    static const int list_fields[N_LISTS] = {
        F_GOLD, F_INFL, F_REP, F_HOLD, F_SECRETS, F_SHIP, F_SHIP_AT, F_COUNTERS, F_CHARS, F_STORES, F_PASSED,
        F_G_WHERE, F_G_AT, F_G_OWNER, F_OFF_AT, F_OFF_BRIBE, F_FACEUP, F_STACKS, F_CHAR_DISCARD, F_SDECK,
        F_SHIPS_LEFT, F_STORES_LEFT, F_DRAWN, F_DRAWN_DECKS};
    PyObject *lists[N_LISTS] = {NULL};
    if (ft_lists(&T, state, list_fields, N_LISTS, lists) < 0) goto fail;

    /* the head: phase, turn, ending, first player and seat to act */
    hot(out + CS_PHASE, phase, CS_PHASE_SIZE);
    out[CS_TURN] = (float)(turn / 40.0);
    out[CS_ENDING] = ending ? 1.0f : 0.0f;
    hot(out + CS_FIRST_PLAYER, rel(first, me, n, -1), MAX_SEATS);
    hot(out + CS_TO_ACT, rel(phase == over_phase ? -1 : actor, me, n, -1), MAX_SEATS);

    /* the seats, counted from the observer */
    for (long r = 0; r < n; r++) {
        long p = (me + r) % n, v[8];
        float *o = out + CS_SEATS + r * CS_SEATS_STRIDE;
        PyObject *hold = row(lists[L_HOLD], p), *secrets = row(lists[L_SECRETS], p);
        PyObject *counters = row(lists[L_COUNTERS], p), *chars = row(lists[L_CHARS], p);
        PyObject *stores = row(lists[L_STORES], p);
        if (hold == NULL || secrets == NULL || counters == NULL || chars == NULL || stores == NULL) goto fail;
        if (ft_item(lists[L_GOLD], p, &v[0]) < 0 || ft_item(lists[L_INFL], p, &v[1]) < 0 ||
            ft_item(lists[L_REP], p, &v[2]) < 0 || ft_item(lists[L_SHIP], p, &v[3]) < 0 ||
            ft_item(lists[L_SHIP_AT], p, &v[4]) < 0)
            goto fail;
        Py_ssize_t nh = seq_len(hold), ns = seq_len(secrets);
        if (nh < 0 || ns < 0) goto fail;
        o[CS_SEATS_GOLD] = (float)(v[0] / 20.0);
        o[CS_SEATS_INFLUENCE] = (float)(v[1] / 10.0);
        o[CS_SEATS_REPUTATION] = (float)(v[2] / 10.0);
        o[CS_SEATS_HOLD] = (float)(nh / 10.0);
        o[CS_SEATS_SECRETS] = (float)(ns / 10.0);
        long slot;
        if (v[3] >= 0) {
            if (look(TB_SHIP, v[3], &slot) < 0) goto fail;
            hot(o + CS_SEATS_SHIP, slot, B + 1);
        } else
            o[CS_SEATS_SHIP + B] = 1.0f;
        if (v[4] >= 0) {
            if (look(TB_SEA, v[4], &slot) < 0) goto fail;
            hot(o + CS_SEATS_SHIP_AT, slot, E1);
        } else
            o[CS_SEATS_SHIP_AT + E1 - 1] = 1.0f;
        if (counts(o + CS_SEATS_COUNTERS, counters, TB_LOC, L) < 0 ||
            counts(o + CS_SEATS_CHARACTERS, chars, TB_CHAR, H) < 0 ||
            counts(o + CS_SEATS_STOREHOUSES, stores, TB_STORE, W) < 0)
            goto fail;
    }

    /* passed, per relative seat */
    Py_ssize_t np_ = seq_len(lists[L_PASSED]);
    if (np_ < 0) goto fail;
    if (np_ > MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "more passed flags than seats");
        goto fail;
    }
    for (Py_ssize_t r = 0; r < np_; r++) {
        long x;
        if (ft_item(lists[L_PASSED], (me + r) % np_, &x) < 0) goto fail;
        out[CS_PASSED + r] = x ? 1.0f : 0.0f;
    }

    /* the goods pieces */
    if (seq_len(lists[L_G_WHERE]) != G) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "expected %d goods pieces", G);
        goto fail;
    }
    for (long g = 0; g < G; g++) {
        long where, at, owner, ws, slots[3];
        float *o = out + CS_GOODS + g * CS_GOODS_STRIDE;
        if (ft_item(lists[L_G_WHERE], g, &where) < 0 || ft_item(lists[L_G_AT], g, &at) < 0 ||
            ft_item(lists[L_G_OWNER], g, &owner) < 0 || look(TB_WHERE, where, &ws) < 0 || place(where, at, slots) < 0)
            goto fail;
        hot(o + CS_GOODS_WHERE, ws, N_WHERE);
        hot(o + CS_GOODS_OWNER, rel(owner, me, n, 5), 6);
        hot(o + CS_GOODS_LOCATION, slots[0], L);
        hot(o + CS_GOODS_STOREHOUSE, slots[1], W);
        hot(o + CS_GOODS_MERCHANT, slots[2], M);
        o[CS_GOODS_SIZE] = (float)goods_size[g];
    }

    /* the officers */
    if (seq_len(lists[L_OFF_AT]) != NO) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "expected %d officers", NO);
        goto fail;
    }
    for (long k = 0; k < NO; k++) {
        long at, by, slot = L;
        float *o = out + CS_OFFICERS + k * CS_OFFICERS_STRIDE;
        if (ft_item(lists[L_OFF_AT], k, &at) < 0 || ft_item(lists[L_OFF_BRIBE], k, &by) < 0) goto fail;
        if (at >= 0 && look(TB_LOC, at, &slot) < 0) goto fail;
        hot(o + CS_OFFICERS_AT, slot, L + 1);
        hot(o + CS_OFFICERS_BRIBED_BY, rel(by, me, n, 5), 6);
    }

    /* the customs track, the wheel, the bank */
    long discovery, bribe;
    if (look(TB_DISCOVERY, track, &discovery) < 0 || look(TB_BRIBE, track, &bribe) < 0) goto fail;
    out[CS_TRACK] = (float)((double)track / (double)track_end);
    out[CS_DISCOVERY] = (float)(discovery / 10.0);
    out[CS_BRIBE] = (float)(bribe / 10.0);
    out[CS_WHEEL] = (float)((double)wheel / (double)wheel_size);
    out[CS_BANK] = (float)(bank / 100.0);

    /* the Characters: face-up cards, stacks, discards; the Secrets deck */
    if (seq_len(lists[L_FACEUP]) != STACKS || seq_len(lists[L_STACKS]) < STACKS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "expected four Character stacks");
        goto fail;
    }
    for (long d = 0; d < STACKS; d++) {
        long c, slot = H;
        if (ft_item(lists[L_FACEUP], d, &c) < 0) goto fail;
        if (c >= 0 && look(TB_FACE, c, &slot) < 0) goto fail;
        hot(out + CS_FACE_UP + d * (H + 1), slot, H + 1);
        Py_ssize_t left = seq_len(PyList_Check(lists[L_STACKS]) ? PyList_GetItem(lists[L_STACKS], d)
                                                               : PyTuple_GetItem(lists[L_STACKS], d));
        if (left < 0) goto fail;
        out[CS_STACKS + d] = (float)(left / 10.0);
    }
    Py_ssize_t discarded = seq_len(lists[L_CHAR_DISCARD]), sdeck = seq_len(lists[L_SDECK]);
    if (discarded < 0 || sdeck < 0) goto fail;
    out[CS_DISCARDED] = (float)(discarded / 10.0);
    out[CS_SECRETS_DECK] = (float)(sdeck / 20.0);

    /* set-up choices, the drawing and the landing under way, the seat's own cards */
    if (counts(out + CS_SHIPS_TO_CHOOSE, lists[L_SHIPS_LEFT], TB_SHIP, B) < 0 ||
        counts(out + CS_STOREHOUSES_TO_CHOOSE, lists[L_STORES_LEFT], TB_STORE, W) < 0)
        goto fail;
    Py_ssize_t ndrawn = seq_len(lists[L_DRAWN]);
    if (ndrawn < 0) goto fail;
    if (ndrawn) {
        out[CS_DRAWING] = 1.0f;
        if (counts(out + CS_DRAWN_FROM, lists[L_DRAWN_DECKS], TB_DECK, CS_DRAWN_FROM_SIZE) < 0) goto fail;
    }
    int landing = 0;
    for (Py_ssize_t i = 0; i < tables[TB_LANDING_PHASES].n; i++) landing |= tables[TB_LANDING_PHASES].v[i] == phase;
    if (landing) {
        long slot;
        out[CS_LANDING] = 1.0f;
        if (look(TB_LOC, land_loc, &slot) < 0) goto fail;
        hot(out + CS_LANDING_AT, slot, L);
        if (counts(out + CS_LANDING_GOODS, land_sel, TB_GOODS, G) < 0) goto fail;
    }
    if (seat >= 0) {
        PyObject *mine = row(lists[L_SECRETS], seat);
        if (mine == NULL || counts(out + CS_YOUR_SECRETS, mine, TB_SECRET, X) < 0) goto fail;
        if (ndrawn && actor == seat && counts(out + CS_YOUR_DRAWN, lists[L_DRAWN], TB_CHAR, H) < 0) goto fail;
    }

    ft_release(lists, N_LISTS);
    return buf;

fail:
    ft_release(lists, N_LISTS);
    Py_DECREF(buf);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(tables..., goods_sizes, over, track_end, wheel, layout)"},
    {"encode", encode, METH_VARARGS,
     "encode(state, seat, phase, actor, land_loc, land_sel) -> bytes of float32: the Cornish Smuggler observation"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cornish_smuggler_fast",
    "The Cornish Smuggler observation, compiled (see games/cornish_smuggler/encoder.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__cornish_smuggler_fast(void) {
    if (ft_init(&T) < 0) return NULL;
    return PyModule_Create(&module);
}
