/* Fail-soft alpha-beta over a gametree Tree's flat arrays, in file order.
 *
 * An optional accelerator for gametree_cli.algorithms.minimax._alphabeta_quiet:
 * the same search as that Python loop (prune on v >= beta / v <= alpha, or
 * > / < when strict; ties go to the first child), iterative with a
 * heap-allocated stack that grows, so depth is bounded by memory only.
 *
 * Values are int64 numerators over a common denominator (exact: the kernel
 * only compares them; the caller guarantees |numerator| < 2**62, so the
 * sentinels INT64_MIN / INT64_MAX stand for -inf / +inf) or float64
 * decimals (real infinities). Inner nodes' entries of the leaf buffer are
 * ignored. No depth limit: the caller keeps its Python loop for that.
 *
 * search(kind, first, count, leaf, is_float, strict) -> tuple of bytes:
 *   order  int64[m]  nodes in the order entered
 *   val    T[m]      per visited node (visit order) the value it returned
 *   alpha  T[m]      ... the alpha it returned with
 *   beta   T[m]      ... the beta it returned with
 *   best   int64[2k] (node, child) pairs, for inner nodes that chose a child
 *   cutn   int64[c]  nodes where a cut-off happened
 *          (best and cutn hold visit positions, indexes into order: record() then
 *          reuses order's int objects for them)
 *   cutv   T[c]      the v that triggered it
 *   cutb   T[c]      the bound it met
 *   pruned int64[p]  topmost skipped nodes, in the order skipped (tree order)
 * and the number of leaves evaluated, as the 10th item.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    Py_ssize_t len; /* items */
    Py_ssize_t cap; /* items */
} vec; /* a growable array of 8-byte items */

static int vec_grow(vec *v, Py_ssize_t need) {
    Py_ssize_t cap = v->cap ? v->cap : 1024;
    while (cap < need) {
        if (cap > PY_SSIZE_T_MAX / 16) return -1;
        cap *= 2;
    }
    char *p = (char *)realloc(v->p, (size_t)cap * 8);
    if (!p) return -1;
    v->p = p;
    v->cap = cap;
    return 0;
}

#define VEC_RESERVE(v, extra) \
    (((v).len + (extra) <= (v).cap) ? 0 : vec_grow(&(v), (v).len + (extra)))
#define VEC_AT(v, T, i) (((T *)(v).p)[i])

enum { V_ORDER, V_VAL, V_ALPHA, V_BETA, V_BEST, V_CUTN, V_CUTV, V_CUTB, V_PRUNED, N_VECS };

typedef struct {
    int64_t node;
    int64_t idx;   /* position in the visit order */
    int64_t pos;   /* next child position (1-based: the one after the child searched) */
    int64_t best;  /* visit position of the best child so far, -1 when none */
    int is_max;
} frame_head;

/* Returns 0 on success, -1 on memory error (exception set), -2 on a malformed tree. */
#define DEFINE_SEARCH(NAME, T, NEG, POS)                                                        \
typedef struct { frame_head h; T alpha, beta, v; } NAME##_frame;                               \
static int NAME(const unsigned char *kind, const int64_t *first, const int64_t *count,          \
                const T *leaf, Py_ssize_t n, int strict, vec *out, int64_t *leaves_out) {       \
    Py_ssize_t sp = 0, cap = 256;                                                              \
    NAME##_frame *stack = (NAME##_frame *)malloc(sizeof(NAME##_frame) * (size_t)cap);           \
    if (!stack) return -1;                                                                     \
    int64_t node = 0, leaves = 0;                                                              \
    T alpha = NEG, beta = POS, result, v = 0;                                                  \
    int64_t result_idx = 0;                                                                    \
    int rc = 0;                                                                                \
    for (;;) {                                                                                 \
    enter:                                                                                     \
        if (VEC_RESERVE(out[V_ORDER], 1) || VEC_RESERVE(out[V_VAL], 1) ||                      \
            VEC_RESERVE(out[V_ALPHA], 1) || VEC_RESERVE(out[V_BETA], 1)) { rc = -1; break; }   \
        Py_ssize_t idx = out[V_ORDER].len;                                                     \
        VEC_AT(out[V_ORDER], int64_t, idx) = node;                                             \
        out[V_ORDER].len++; out[V_VAL].len++; out[V_ALPHA].len++; out[V_BETA].len++;           \
        int64_t nc = count[node];                                                              \
        if (nc) {                                                                              \
            int64_t f0 = first[node];                                                          \
            if (nc < 0 || f0 <= node || f0 > n - nc) { rc = -2; break; }                       \
            if (sp == cap) {                                                                   \
                if (cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(NAME##_frame)) { rc = -1; break; } \
                NAME##_frame *s = (NAME##_frame *)realloc(stack, sizeof(NAME##_frame) * (size_t)cap * 2); \
                if (!s) { rc = -1; break; }                                                    \
                stack = s; cap *= 2;                                                           \
            }                                                                                  \
            NAME##_frame *f = &stack[sp++];                                                    \
            f->h.node = node; f->h.idx = idx; f->h.pos = 1; f->h.best = -1;                   \
            f->h.is_max = kind[node] == 1;                                                     \
            f->alpha = alpha; f->beta = beta; f->v = f->h.is_max ? NEG : POS;                  \
            node = f0;                                                                         \
            continue;                                                                          \
        }                                                                                      \
        result = leaf[node];                                                                   \
        result_idx = idx;                                                                      \
        leaves++;                                                                              \
        VEC_AT(out[V_VAL], T, idx) = result;                                                   \
        VEC_AT(out[V_ALPHA], T, idx) = alpha;                                                  \
        VEC_AT(out[V_BETA], T, idx) = beta;                                                    \
        while (sp > 0) {                                                                       \
            NAME##_frame *f = &stack[sp - 1];                                                  \
            int64_t parent = f->h.node, pos = f->h.pos;                                        \
            int64_t start = first[parent], nc2 = count[parent];                                \
            int cut;                                                                           \
            T bound;                                                                           \
            if (f->h.is_max) {                                                                 \
                if (result > f->v) { f->v = result; f->h.best = result_idx; }                    \
                v = f->v; bound = f->beta;                                                     \
                cut = strict ? (v > bound) : (v >= bound);                                     \
                if (!cut && v > f->alpha) f->alpha = v;                                        \
            } else {                                                                           \
                if (result < f->v) { f->v = result; f->h.best = result_idx; }                    \
                v = f->v; bound = f->alpha;                                                    \
                cut = strict ? (v < bound) : (v <= bound);                                     \
                if (!cut && v < f->beta) f->beta = v;                                          \
            }                                                                                  \
            if (cut) {                                                                         \
                if (VEC_RESERVE(out[V_CUTN], 1) || VEC_RESERVE(out[V_CUTV], 1) ||              \
                    VEC_RESERVE(out[V_CUTB], 1) || VEC_RESERVE(out[V_PRUNED], nc2 - pos)) {    \
                    rc = -1; goto done;                                                        \
                }                                                                              \
                VEC_AT(out[V_CUTN], int64_t, out[V_CUTN].len++) = f->h.idx;                    \
                VEC_AT(out[V_CUTV], T, out[V_CUTV].len++) = v;                                 \
                VEC_AT(out[V_CUTB], T, out[V_CUTB].len++) = bound;                             \
                for (int64_t c = start + pos; c < start + nc2; c++)                            \
                    VEC_AT(out[V_PRUNED], int64_t, out[V_PRUNED].len++) = c;                   \
                pos = nc2;                                                                     \
            }                                                                                  \
            if (pos < nc2) {                                                                   \
                f->h.pos = pos + 1;                                                            \
                node = start + pos;                                                            \
                alpha = f->alpha; beta = f->beta;                                              \
                goto enter;                                                                    \
            }                                                                                  \
            VEC_AT(out[V_VAL], T, f->h.idx) = v;                                               \
            VEC_AT(out[V_ALPHA], T, f->h.idx) = f->alpha;                                      \
            VEC_AT(out[V_BETA], T, f->h.idx) = f->beta;                                        \
            if (f->h.best >= 0) {                                                              \
                if (VEC_RESERVE(out[V_BEST], 2)) { rc = -1; goto done; }                       \
                VEC_AT(out[V_BEST], int64_t, out[V_BEST].len++) = f->h.idx;                    \
                VEC_AT(out[V_BEST], int64_t, out[V_BEST].len++) = f->h.best;                   \
            }                                                                                  \
            result = v;                                                                        \
            result_idx = f->h.idx;                                                             \
            sp--;                                                                              \
        }                                                                                      \
        break;                                                                                 \
    }                                                                                          \
done:                                                                                          \
    free(stack);                                                                               \
    *leaves_out = leaves;                                                                      \
    return rc;                                                                                 \
}

DEFINE_SEARCH(search_i64, int64_t, INT64_MIN, INT64_MAX)
DEFINE_SEARCH(search_f64, double, -INFINITY, INFINITY)

static PyObject *abk_search(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer kind, first, count, leaf;
    int is_float, strict;
    if (!PyArg_ParseTuple(args, "y*y*y*y*pp", &kind, &first, &count, &leaf, &is_float, &strict))
        return NULL;
    PyObject *result = NULL;
    vec out[N_VECS];
    memset(out, 0, sizeof(out));
    Py_ssize_t n = kind.len;
    if (n < 1 || first.len != n * 8 || count.len != n * 8 || leaf.len != n * 8) {
        PyErr_SetString(PyExc_ValueError, "kind, first, count and leaf must describe the same nodes (8-byte items)");
        goto finish;
    }
    int64_t leaves = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    /* the search touches no Python object; memory errors are raised after re-taking the GIL */
    if (is_float)
        rc = search_f64((const unsigned char *)kind.buf, (const int64_t *)first.buf,
                        (const int64_t *)count.buf, (const double *)leaf.buf, n, strict, out, &leaves);
    else
        rc = search_i64((const unsigned char *)kind.buf, (const int64_t *)first.buf,
                        (const int64_t *)count.buf, (const int64_t *)leaf.buf, n, strict, out, &leaves);
    Py_END_ALLOW_THREADS
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "malformed tree: a child range lies outside the node arrays");
        goto finish;
    }
    if (rc < 0) {
        PyErr_NoMemory();
        goto finish;
    }
    result = PyTuple_New(N_VECS + 1);
    if (!result) goto finish;
    for (int i = 0; i < N_VECS; i++) {
        PyObject *b = PyBytes_FromStringAndSize(out[i].p ? out[i].p : "", out[i].len * 8);
        if (!b) { Py_CLEAR(result); goto finish; }
        PyTuple_SET_ITEM(result, i, b);
    }
    PyObject *nl = PyLong_FromLongLong(leaves);
    if (!nl) { Py_CLEAR(result); goto finish; }
    PyTuple_SET_ITEM(result, N_VECS, nl);
finish:
    for (int i = 0; i < N_VECS; i++) free(out[i].p);
    PyBuffer_Release(&kind);
    PyBuffer_Release(&first);
    PyBuffer_Release(&count);
    PyBuffer_Release(&leaf);
    return result;
}

/* ---- Python objects from the compact results ------------------------------------------- */

typedef struct {
    int is_float;
    PyObject *convert; /* numerator -> Python number, or NULL when the denominator is 1 */
    PyObject *cache;   /* numerator -> converted, for convert when there is no table */
    PyObject *neg_inf, *pos_inf;
    PyObject **table;  /* numerator - low -> Python number, filled on first use; NULL: no table */
    int64_t low, high;
} numctx;

static PyObject *fresh_number(const numctx *c, int64_t x) {
    PyObject *k = PyLong_FromLongLong(x);
    if (!k || !c->convert) return k;
    PyObject *hit = c->cache ? PyDict_GetItemWithError(c->cache, k) : NULL;
    if (hit) { Py_DECREF(k); Py_INCREF(hit); return hit; }
    if (PyErr_Occurred()) { Py_DECREF(k); return NULL; }
    PyObject *r = PyObject_CallOneArg(c->convert, k);
    if (r && c->cache && PyDict_SetItem(c->cache, k, r) < 0) Py_CLEAR(r);
    Py_DECREF(k);
    return r;
}

static PyObject *make_number(const numctx *c, const char *data, Py_ssize_t i) {
    if (c->is_float) return PyFloat_FromDouble(((const double *)data)[i]);
    int64_t x = ((const int64_t *)data)[i];
    if (x == INT64_MIN) { Py_INCREF(c->neg_inf); return c->neg_inf; }
    if (x == INT64_MAX) { Py_INCREF(c->pos_inf); return c->pos_inf; }
    if (c->table && x >= c->low && x <= c->high) {
        PyObject **slot = &c->table[x - c->low];
        if (!*slot && !(*slot = fresh_number(c, x))) return NULL;
        Py_INCREF(*slot);
        return *slot;
    }
    return fresh_number(c, x);
}

/* the finite range of the int64 numbers in `b` (sentinels left out) */
static void widen_range(const Py_buffer *b, int64_t *low, int64_t *high) {
    const int64_t *p = (const int64_t *)b->buf;
    for (Py_ssize_t i = 0; i < b->len / 8; i++) {
        int64_t x = p[i];
        if (x == INT64_MIN || x == INT64_MAX) continue;
        if (x < *low) *low = x;
        if (x > *high) *high = x;
    }
}

static PyObject *new_dict(Py_ssize_t size) {
#if PY_VERSION_HEX < 0x030D0000 && !defined(Py_LIMITED_API)
    return _PyDict_NewPresized(size); /* one table instead of a resize every doubling */
#else
    (void)size;
    return PyDict_New();
#endif
}

static PyObject *int64_list(const Py_buffer *b) {
    Py_ssize_t m = b->len / 8;
    const int64_t *p = (const int64_t *)b->buf;
    PyObject *list = PyList_New(m);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *x = PyLong_FromLongLong(p[i]);
        if (!x) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* record(n, kind, order, val, alpha, beta, best, cutn, cutv, cutb, pruned, is_float, convert, neg_inf, pos_inf,
 *        cut_type, max_op, min_op)
 *   -> (values, order, alpha, beta, best, cuts, pruned)  as _alphabeta_quiet's Python loop builds them;
 *   alpha and beta empty: None for both (the caller keeps the arrays; ABI 2) */
static PyObject *abk_record(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t n;
    Py_buffer kind, order, val, alpha, beta, best, cutn, cutv, cutb, pruned;
    int is_float;
    PyObject *convert, *neg_inf, *pos_inf, *cut_type, *max_op, *min_op;
    if (!PyArg_ParseTuple(args, "ny*y*y*y*y*y*y*y*y*y*pOOOOOO", &n, &kind, &order, &val, &alpha, &beta, &best,
                          &cutn, &cutv, &cutb, &pruned, &is_float, &convert, &neg_inf, &pos_inf, &cut_type,
                          &max_op, &min_op))
        return NULL;
    Py_buffer *bufs[] = {&kind, &order, &val, &alpha, &beta, &best, &cutn, &cutv, &cutb, &pruned};
    PyObject *values = NULL, *order_list = NULL, *alpha_d = NULL, *beta_d = NULL, *best_d = NULL, *cuts_d = NULL;
    PyObject *pruned_list = NULL, *result = NULL, *s_alpha = NULL, *s_beta = NULL, *s_v = NULL;
    numctx c = {is_float, convert == Py_None ? NULL : convert, NULL, neg_inf, pos_inf, NULL, 0, 0};
    int gc_was_enabled = PyGC_Disable(); /* only ints, floats and a few tuples: nothing to collect */
    Py_ssize_t m = order.len / 8, nc = cutn.len / 8;
    if (!PyType_Check(cut_type) || !PyType_IsSubtype((PyTypeObject *)cut_type, &PyTuple_Type) ||
        (val.len && val.len != order.len) || alpha.len != beta.len || (alpha.len && alpha.len != order.len) || cutv.len != cutn.len ||
        cutb.len != cutn.len || kind.len != n || best.len % 16) {
        PyErr_SetString(PyExc_ValueError, "record: inconsistent arguments");
        goto finish;
    }
    if (!is_float && m) {
        /* numbers repeat (they are all leaf values): within a modest range, one object per distinct number */
        int64_t low = INT64_MAX, high = INT64_MIN;
        widen_range(&val, &low, &high);
        widen_range(&alpha, &low, &high);
        widen_range(&beta, &low, &high);
        widen_range(&cutv, &low, &high);
        widen_range(&cutb, &low, &high);
        if (low <= high && (uint64_t)high - (uint64_t)low < (uint64_t)(m < (1 << 16) ? (1 << 16) : m)) {
            c.low = low;
            c.high = high;
            if (!(c.table = (PyObject **)calloc((size_t)(high - low + 1), sizeof(PyObject *)))) {
                PyErr_NoMemory();
                goto finish;
            }
        }
    }
    if (c.convert && !c.table && !(c.cache = PyDict_New())) goto finish;
    if (!(s_alpha = PyUnicode_InternFromString("alpha")) || !(s_beta = PyUnicode_InternFromString("beta")) ||
        !(s_v = PyUnicode_InternFromString("v")))
        goto finish;
    if (!(order_list = int64_list(&order)) || !(pruned_list = int64_list(&pruned))) goto finish;
    /* empty alpha and beta: the caller keeps the bounds as they are (gametree_cli.numeric.VisitBounds) */
    if (!(alpha_d = alpha.len ? new_dict(m) : Py_NewRef(Py_None)) ||
        !(beta_d = alpha.len ? new_dict(m) : Py_NewRef(Py_None)) || !(best_d = new_dict(best.len / 16)) ||
        !(cuts_d = new_dict(nc)))
        goto finish;
    for (Py_ssize_t i = 0; i < m && alpha.len; i++) {
        PyObject *key = PyList_GET_ITEM(order_list, i);
        PyObject *a = make_number(&c, alpha.buf, i);
        if (!a) goto finish;
        int rc = PyDict_SetItem(alpha_d, key, a);
        Py_DECREF(a);
        if (rc < 0) goto finish;
        PyObject *b = make_number(&c, beta.buf, i);
        if (!b) goto finish;
        rc = PyDict_SetItem(beta_d, key, b);
        Py_DECREF(b);
        if (rc < 0) goto finish;
    }
    {
        const int64_t *bp = (const int64_t *)best.buf;
        for (Py_ssize_t i = 0; i < best.len / 8; i += 2) {
            if (bp[i] < 0 || bp[i] >= m || bp[i + 1] < 0 || bp[i + 1] >= m) {
                PyErr_SetString(PyExc_ValueError, "record: visit position out of range");
                goto finish;
            }
            if (PyDict_SetItem(best_d, PyList_GET_ITEM(order_list, bp[i]), PyList_GET_ITEM(order_list, bp[i + 1])) < 0)
                goto finish;
        }
    }
    {
        const int64_t *cn = (const int64_t *)cutn.buf;
        const unsigned char *kd = (const unsigned char *)kind.buf;
        PyTypeObject *ct = (PyTypeObject *)cut_type;
        for (Py_ssize_t i = 0; i < nc; i++) {
            if (cn[i] < 0 || cn[i] >= m) { PyErr_SetString(PyExc_ValueError, "record: visit position out of range"); goto finish; }
            int64_t node = ((const int64_t *)order.buf)[cn[i]];
            if (node < 0 || node >= n) { PyErr_SetString(PyExc_ValueError, "record: node out of range"); goto finish; }
            int is_max = kd[node] == 1;
            PyObject *v = make_number(&c, cutv.buf, i);
            if (!v) goto finish;
            PyObject *bound = make_number(&c, cutb.buf, i);
            if (!bound) { Py_DECREF(v); goto finish; }
            PyObject *cut = ct->tp_alloc(ct, 6); /* as tuple.__new__(Cut, (...)) makes it */
            if (!cut) { Py_DECREF(v); Py_DECREF(bound); goto finish; }
            PyObject *op = is_max ? max_op : min_op, *name = is_max ? s_beta : s_alpha;
            Py_INCREF(v); Py_INCREF(op); Py_INCREF(name); Py_INCREF(s_v);
            PyTuple_SET_ITEM(cut, 0, v);
            PyTuple_SET_ITEM(cut, 1, op);
            PyTuple_SET_ITEM(cut, 2, name);
            PyTuple_SET_ITEM(cut, 3, bound);
            PyTuple_SET_ITEM(cut, 4, v);
            PyTuple_SET_ITEM(cut, 5, s_v);
            int rc = PyDict_SetItem(cuts_d, PyList_GET_ITEM(order_list, cn[i]), cut);
            Py_DECREF(cut);
            if (rc < 0) goto finish;
        }
    }
    /* the per-node list: None where the search did not go; an empty val: None (the caller
       keeps the values in an array: ABI 3) */
    if (!val.len) {
        values = Py_NewRef(Py_None);
        result = PyTuple_Pack(7, values, order_list, alpha_d, beta_d, best_d, cuts_d, pruned_list);
        goto finish;
    }
    if (!(values = PyList_New(n))) goto finish;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(values, i, Py_None);
    }
    {
        const int64_t *op = (const int64_t *)order.buf;
        for (Py_ssize_t i = 0; i < m; i++) {
            if (op[i] < 0 || op[i] >= n) { PyErr_SetString(PyExc_ValueError, "record: node out of range"); goto finish; }
            PyObject *x = make_number(&c, val.buf, i);
            if (!x) goto finish;
            PyObject *old = PyList_GET_ITEM(values, op[i]);
            PyList_SET_ITEM(values, op[i], x);
            Py_DECREF(old);
        }
    }
    result = PyTuple_Pack(7, values, order_list, alpha_d, beta_d, best_d, cuts_d, pruned_list);
finish:
    if (gc_was_enabled) PyGC_Enable();
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) PyBuffer_Release(bufs[i]);
    Py_XDECREF(c.cache);
    if (c.table) {
        for (int64_t i = 0; i <= c.high - c.low; i++) Py_XDECREF(c.table[i]);
        free(c.table);
    }
    Py_XDECREF(values); Py_XDECREF(order_list); Py_XDECREF(alpha_d); Py_XDECREF(beta_d);
    Py_XDECREF(best_d); Py_XDECREF(cuts_d); Py_XDECREF(pruned_list);
    Py_XDECREF(s_alpha); Py_XDECREF(s_beta); Py_XDECREF(s_v);
    return result;
}

static PyMethodDef abk_methods[] = {
    {"search", abk_search, METH_VARARGS,
     "search(kind, first, count, leaf, is_float, strict) -> (order, val, alpha, beta, best, cutn, cutv, cutb, "
     "pruned, leaves): fail-soft alpha-beta in file order; see the module source."},
    {"record", abk_record, METH_VARARGS,
     "record(n, kind, order, val, alpha, beta, best, cutn, cutv, cutb, pruned, is_float, convert, neg_inf, pos_inf, "
     "cut_type, max_op, min_op) -> (values, order, alpha, beta, best, cuts, pruned): Python objects for search's "
     "results."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef abk_module = {
    PyModuleDef_HEAD_INIT, "_abkernel", "Optional compiled alpha-beta kernel for gametree.", -1, abk_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__abkernel(void) {
    PyObject *module = PyModule_Create(&abk_module);
    if (module && PyModule_AddIntConstant(module, "ABI", 3) < 0) Py_CLEAR(module);
    return module;
}
