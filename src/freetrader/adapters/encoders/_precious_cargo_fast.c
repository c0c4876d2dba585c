/* The Precious Cargo observation (encoder version 1), compiled.
 *
 * encode(state, seat) returns the observation as bytes of native
 * float32, the same vector as PreciousCargoEncoder.features(state.view(seat)):
 * each value is computed in double, as Python computes it there, then
 * rounded to float once. Everything it reads is on the board (the order of
 * the face-down chips is not read, only their count). The layout is
 * declared in games/precious_cargo/encoder.py, and its offsets come from the
 * header generated from it; configure() hands over the tables (and the sizes,
 * checked against the header's).
 */
#include "_fastobs.h"
#include "_precious_cargo_layout.h" /* the offsets, generated from the encoder's declared layout */

#define MAX_PLACES 64
#define MAX_CARGO 16
#define MAX_PHASES 16
#define MAX_USED 8
#define MAX_CODES 256
#define MAX_SLOTS 8

static int configured = 0;
static int n_phases, n_settlements, n_places, n_cargo, ships, actions_per_turn, n_used_bits, n_crates;
static double coins_total;
static int turn_phase[MAX_PHASES];
static long used_bit[MAX_USED];
static int used_index[MAX_USED];
static int crate_of[MAX_CODES];          /* crate code -> crate type index, -1 if none */
static int buyable[2][MAX_CARGO];
static int n_buyable[2];
static Py_ssize_t size;

enum {
    F_FRAMES, F_FINAL_TURN, F_FIRST, F_TURN, F_OPTIONS, F_COINS, F_COUNTRY, F_HOME,
    F_GOV_LEFT, F_GOV, F_CHIPS, F_AT, F_SAILS, F_MOVES, F_HOLDS, F_STOCK, F_POOLS, N_FIELDS
};
static const char *const field_names[N_FIELDS] = {
    "frames", "final_turn", "first", "turn", "options", "coins", "country", "home",
    "gov_left", "gov", "chips", "at", "sails", "moves", "holds", "stock", "pools",
};
static FieldTable T = {.n = N_FIELDS, .names = field_names, .game = "Precious Cargo"};

/* Ints from a Python sequence into out[0..max); returns how many, -1 with an error set. */
static int ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = ft_tuple(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t n = PyTuple_Size(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d, got %zd", what, max, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GetItem(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* The frame types the state's registers are read from (frames.py), and the phase of an empty stack. */
static PyObject *turn_type, *loading_type, *selling_type;
static long over_phase;
static PyObject *phase_key, *used_key, *slot_key, *place_key; /* interned attribute names */

/* configure(n_phases, turn_phases, settlements, places, cargo, ships, actions_per_turn, coins_total,
 *           used_bits, used_index, crate_of, buyable_0, buyable_1, over_phase, Turn, Loading, Selling)
 *   -> observation size */
static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *turn_phases, *bits, *index, *crates, *b0, *b1, *types[3];
    if (!PyArg_ParseTuple(args, "iOiiiiidOOOOOlOOO", &n_phases, &turn_phases, &n_settlements, &n_places, &n_cargo,
                          &ships, &actions_per_turn, &coins_total, &bits, &index, &crates, &b0, &b1, &over_phase,
                          &types[0], &types[1], &types[2]))
        return NULL;
    for (int i = 0; i < 3; i++)
        if (!PyType_Check(types[i])) {
            PyErr_SetString(PyExc_TypeError, "Precious Cargo's Turn, Loading and Selling must be frame types");
            return NULL;
        }
    PyObject **keep[3] = {&turn_type, &loading_type, &selling_type};
    for (int i = 0; i < 3; i++) {
        Py_INCREF(types[i]);
        ft_replace(keep[i], types[i]);
    }
    if (n_phases > MAX_PHASES || n_places > MAX_PLACES || n_cargo > MAX_CARGO || 2 * ships > MAX_SLOTS ||
        n_settlements > n_places || n_settlements < 1 || ships < 1) {
        PyErr_SetString(PyExc_ValueError, "Precious Cargo sizes out of the compiled encoder's range");
        return NULL;
    }
    int phases[MAX_PHASES];
    int k = ints(turn_phases, phases, MAX_PHASES, "turn phases");
    if (k < 0) return NULL;
    for (int i = 0; i < MAX_PHASES; i++) turn_phase[i] = 0;
    for (int i = 0; i < k; i++) {
        if (phases[i] < 0 || phases[i] >= n_phases) {
            PyErr_SetString(PyExc_ValueError, "a turn phase is out of range");
            return NULL;
        }
        turn_phase[phases[i]] = 1;
    }
    int b[MAX_USED];
    n_used_bits = ints(bits, b, MAX_USED, "used bits");
    if (n_used_bits < 0 || ints(index, used_index, MAX_USED, "used index") != n_used_bits) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "used bits and their indices differ in length");
        return NULL;
    }
    for (int i = 0; i < n_used_bits; i++) {
        used_bit[i] = b[i];
        if (used_index[i] < 0 || used_index[i] >= n_used_bits) {
            PyErr_SetString(PyExc_ValueError, "a used index is out of range");
            return NULL;
        }
    }
    int codes = ints(crates, crate_of, MAX_CODES, "crate table");
    if (codes < 0) return NULL;
    n_crates = 0;
    for (int i = 0; i < MAX_CODES; i++) {
        if (i >= codes) crate_of[i] = -1;
        if (crate_of[i] >= n_crates) n_crates = crate_of[i] + 1;
    }
    if ((n_buyable[0] = ints(b0, buyable[0], MAX_CARGO, "buyable")) < 0) return NULL;
    if ((n_buyable[1] = ints(b1, buyable[1], MAX_CARGO, "buyable")) < 0) return NULL;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < n_buyable[c]; i++)
            if (buyable[c][i] < 0 || buyable[c][i] >= n_cargo) {
                PyErr_SetString(PyExc_ValueError, "a buyable cargo is out of range");
                return NULL;
            }
    Py_ssize_t ship_block = 1 + n_places + 2 + n_crates;
    size = n_phases + 7 + n_used_bits + (ships + 1) + (n_settlements + 1) + 2 * (3 + n_settlements + 1 + 2) +
           n_settlements * (3 + n_cargo + 1 + 2) + 2 * ships * ship_block + n_buyable[0] + n_buyable[1] + 2;
    if (size != PC_SIZE || ship_block != PC_SHIPS_STRIDE || n_phases != PC_PHASE_SIZE || ships * 2 != PC_SHIPS_COUNT ||
        n_settlements != PC_SETTLEMENTS_COUNT) {
        PyErr_Format(PyExc_ValueError, "compiled for a layout of %d floats, configured for %zd: regenerate "
                     "_precious_cargo_layout.h and rebuild", PC_SIZE, size);
        return NULL;
    }
    configured = 1;
    return PyLong_FromSsize_t(size);
}

static inline void one_hot(float *o, long i, long n) {
    if (i >= 0 && i < n) o[i] = 1.0f;
}

static PyObject *target_key; /* "target", interned: the options dict is read by it every call */

static int is_a(PyObject *o, PyObject *type) {
    return Py_TYPE(o) == (PyTypeObject *)type || PyType_IsSubtype(Py_TYPE(o), (PyTypeObject *)type);
}

/* An int attribute of a frame; -1 with an error set. */
static int frame_long(PyObject *frame, PyObject *name, long *out) {
    PyObject *v = PyObject_GetAttr(frame, name);
    if (v == NULL) return -1;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The state's phase, used, cur_ship and sell_at properties (state.py), read from its frame stack as they
 * read it: the top frame's phase (over_phase when none is left), the bottom Turn's used bits (the last
 * turn's, in final_turn, once over), the top Loading's slot and the top Selling's place (else -1). Four
 * property calls from C cost about a third of an engine step; these reads, a tenth of that. */
static int registers(PyObject *state, long *phase, long *used, long *cur_ship, long *sell_at) {
    *phase = over_phase;
    *used = 0;
    *cur_ship = *sell_at = -1;
    PyObject *frames = ft_tuple_field(&T, state, F_FRAMES);
    if (frames == NULL) return -1;
    Py_ssize_t depth = PyTuple_Size(frames);
    if (depth == 0) { /* over: `self.frames or self.final_turn` */
        Py_DECREF(frames);
        PyObject *last = ft_tuple_field(&T, state, F_FINAL_TURN);
        if (last == NULL) return -1;
        PyObject *turn = PyTuple_Size(last) > 0 ? PyTuple_GetItem(last, 0) : NULL;
        int rc = turn != NULL && is_a(turn, turn_type) ? frame_long(turn, used_key, used) : 0;
        Py_DECREF(last);
        return rc;
    }
    PyObject *top = PyTuple_GetItem(frames, depth - 1), *turn = PyTuple_GetItem(frames, 0);
    int rc = frame_long(top, phase_key, phase);
    if (rc == 0 && is_a(top, loading_type)) rc = frame_long(top, slot_key, cur_ship);
    if (rc == 0 && is_a(top, selling_type)) rc = frame_long(top, place_key, sell_at);
    if (rc == 0 && is_a(turn, turn_type)) rc = frame_long(turn, used_key, used);
    Py_DECREF(frames);
    return rc;
}

static PyObject *encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    PyObject *state, *seat_obj;
    if (ft_two_args(args, nargs, &state, &seat_obj) < 0) return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    long me = 0;
    if (seat_obj != Py_None) {
        me = PyLong_AsLong(seat_obj);
        if (me == -1 && PyErr_Occurred()) return NULL;
        if (me < 0 || me > 1) {
            PyErr_Format(PyExc_ValueError, "bad seat %ld for 2 seats", me);
            return NULL;
        }
    }
    ft_bind(&T, state);
    int err = 0;
    long phase, used, cur_ship, sell_at;
    if (registers(state, &phase, &used, &cur_ship, &sell_at) < 0) return NULL;
    long first = ft_long(&T, state, F_FIRST, &err);
    long turn = ft_long(&T, state, F_TURN, &err);
    /* the state's n_used is used.bit_count(), a property over the one above: counted here, not read again */
    long n_used = __builtin_popcountl((unsigned long)used);
    if (err) return NULL;

    enum { L_COINS, L_COUNTRY, L_HOME, L_GOV_LEFT, L_GOV, L_CHIPS, L_AT, L_SAILS, L_MOVES, L_HOLDS, L_STOCK, L_POOLS,
           N_LISTS };
    static const int list_fields[N_LISTS] = {F_COINS, F_COUNTRY, F_HOME, F_GOV_LEFT, F_GOV, F_CHIPS, F_AT,
                                             F_SAILS, F_MOVES, F_HOLDS, F_STOCK, F_POOLS};
    PyObject *lists[N_LISTS] = {NULL};
    PyObject *options = NULL, *buf = NULL;
    if (ft_lists(&T, state, list_fields, N_LISTS, lists) < 0) goto fail;
    options = ft_get(&T, state, F_OPTIONS);
    if (options == NULL) goto fail;
    PyObject *target_obj = PyDict_Check(options) ? PyDict_GetItemWithError(options, target_key) : NULL; /* borrowed */
    if (target_obj == NULL) {
        if (PyErr_Occurred()) goto fail;
        PyErr_SetString(PyExc_KeyError, "Precious Cargo state options have no target");
        goto fail;
    }
    double target = PyFloat_AsDouble(target_obj);
    if (target == -1.0 && PyErr_Occurred()) goto fail;

    float *out;
    buf = ft_floats(size, &out);
    if (buf == NULL) goto fail;
    float *o;
    const int S = n_settlements, K = n_cargo, NP = n_places;

    /* head */
    one_hot(out + PC_PHASE, phase, n_phases);
    long coins[2];
    if (ft_item(lists[L_COINS], 0, &coins[0]) < 0 || ft_item(lists[L_COINS], 1, &coins[1]) < 0) goto fail;
    long left = (phase >= 0 && phase < MAX_PHASES && turn_phase[phase]) ? actions_per_turn - n_used : 0;
    out[PC_TURN] = (float)(turn / 100.0);
    out[PC_TARGET] = (float)(target / 50.0);
    out[PC_BANK] = (float)((coins_total - (double)(coins[0] + coins[1])) / 100.0);
    out[PC_ACTIONS_LEFT] = (float)(left / 2.0);
    out[PC_FIRST_ME] = first >= 0 && first == me ? 1.0f : 0.0f;
    out[PC_FIRST_OTHER] = first >= 0 && first != me ? 1.0f : 0.0f;
    out[PC_FIRST_NONE] = first < 0 ? 1.0f : 0.0f;
    for (int i = 0; i < n_used_bits; i++)
        if (used & used_bit[i]) out[PC_USED + used_index[i]] = 1.0f;
    one_hot(out + PC_LOADING, cur_ship >= 0 ? cur_ship % ships + 1 : 0, ships + 1);
    one_hot(out + PC_SELLING, sell_at >= 0 ? sell_at : S, S + 1);

    /* players, me first */
    for (long r = 0; r < 2; r++) {
        long p = (me + r) % 2, country, home, gov_left;
        if (ft_item(lists[L_COUNTRY], p, &country) < 0 || ft_item(lists[L_HOME], p, &home) < 0 ||
            ft_item(lists[L_GOV_LEFT], p, &gov_left) < 0)
            goto fail;
        o = out + PC_PLAYERS + r * PC_PLAYERS_STRIDE;
        one_hot(o + PC_PLAYERS_COUNTRY, country >= 0 ? country : 2, 3);
        one_hot(o + PC_PLAYERS_HOME, home >= 0 ? home : S, S + 1);
        o[PC_PLAYERS_COINS] = (float)(coins[p] / 25.0);
        o[PC_PLAYERS_GOVERNORS_LEFT] = (float)(gov_left / 5.0);
    }

    /* settlements: governor, chip wanted, ships there (mine, the other's) */
    long at[MAX_SLOTS];
    for (int slot = 0; slot < 2 * ships; slot++)
        if (ft_item(lists[L_AT], slot, &at[slot]) < 0) goto fail;
    for (long p = 0; p < S; p++) {
        long gov, chip;
        if (ft_item(lists[L_GOV], p, &gov) < 0 || ft_item(lists[L_CHIPS], p, &chip) < 0) goto fail;
        o = out + PC_SETTLEMENTS + p * PC_SETTLEMENTS_STRIDE;
        one_hot(o + PC_SETTLEMENTS_GOVERNOR, gov >= 0 ? ((gov - me) % 2 + 2) % 2 : 2, 3);
        one_hot(o + PC_SETTLEMENTS_WANTS, chip >= 0 ? chip : K, K + 1);
        int mine = 0, other = 0;
        for (int slot = 0; slot < 2 * ships; slot++)
            if (at[slot] == p) {
                if (slot / ships == me) mine++;
                else other++;
            }
        o[PC_SETTLEMENTS_MY_SHIPS] = (float)mine;
        o[PC_SETTLEMENTS_OTHER_SHIPS] = (float)other;
    }

    /* ships: mine (1..3), then the other's */
    const Py_ssize_t block = PC_SHIPS_STRIDE;
    for (int slot = 0; slot < 2 * ships; slot++) {
        long place = at[slot];
        if (place < 0) continue;
        if (place >= NP) {
            PyErr_SetString(PyExc_ValueError, "a ship is at a place out of range");
            goto fail;
        }
        long owner = slot / ships, number = slot % ships, sails, moves;
        if (ft_item(lists[L_SAILS], slot, &sails) < 0 || ft_item(lists[L_MOVES], slot, &moves) < 0) goto fail;
        float *b = out + PC_SHIPS + (((owner - me + 2) % 2) * ships + number) * block;
        b[PC_SHIPS_BUILT] = 1.0f;
        b[PC_SHIPS_PLACE + place] = 1.0f;
        b[PC_SHIPS_SAILS] = (float)(sails / 3.0);
        b[PC_SHIPS_MOVES_LEFT] = (float)(moves / 5.0);
        if (slot >= PyList_Size(lists[L_HOLDS])) {
            PyErr_SetString(PyExc_IndexError, "Precious Cargo holds shorter than the ships");
            goto fail;
        }
        PyObject *hold = PyList_GetItem(lists[L_HOLDS], slot);
        Py_ssize_t n = PyTuple_Check(hold) ? PyTuple_Size(hold) : PyList_Check(hold) ? PyList_Size(hold) : -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            long code;
            if (ft_item(hold, i, &code) < 0) goto fail;
            int k = code >= 0 && code < MAX_CODES ? crate_of[code] : -1;
            if (k < 0) {
                PyErr_Format(PyExc_ValueError, "unknown crate code %ld", code);
                goto fail;
            }
            b[PC_SHIPS_CRATES + k] += 1.0f; /* small counts: exact in float as in double */
        }
        if (n < 0) {
            PyErr_SetString(PyExc_TypeError, "a hold is not a tuple or a list");
            goto fail;
        }
    }
    /* the supply card, then the face-down chips */
    o = out + PC_SUPPLY;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < n_buyable[c]; i++) {
            long stock;
            if (ft_item(lists[L_STOCK], c * K + buyable[c][i], &stock) < 0) goto fail;
            *o++ = (float)(stock / 10.0);
        }
    o = out + PC_FACE_DOWN;
    PyObject *pools = lists[L_POOLS];
    for (int c = 0; c < 2; c++) {
        if (c >= PyList_Size(pools) || !PyList_Check(PyList_GetItem(pools, c))) {
            PyErr_SetString(PyExc_TypeError, "Precious Cargo pools are not two lists");
            goto fail;
        }
        *o++ = (float)(PyList_Size(PyList_GetItem(pools, c)) / 10.0);
    }

    ft_release(lists, N_LISTS);
    Py_DECREF(options);
    return buf;

fail:
    ft_release(lists, N_LISTS);
    Py_XDECREF(options);
    Py_XDECREF(buf);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "configure(...) -> observation size (see precious_cargo.py)"},
    {"encode", (PyCFunction)(void (*)(void))encode, METH_FASTCALL, "encode(state, seat) -> bytes of float32: the Precious Cargo observation"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_precious_cargo_fast", "The Precious Cargo observation, compiled (see precious_cargo.py).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__precious_cargo_fast(void) {
    if (ft_init(&T) < 0) return NULL;
    PyObject **keys[5] = {&target_key, &phase_key, &used_key, &slot_key, &place_key};
    const char *names[5] = {"target", "phase", "used", "slot", "place"};
    for (int i = 0; i < 5; i++)
        if ((*keys[i] = PyUnicode_InternFromString(names[i])) == NULL) return NULL;
    return PyModule_Create(&module);
}
