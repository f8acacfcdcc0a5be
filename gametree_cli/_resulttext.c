/* Quoted node ids and joined entries for the JSON result, in C.
 *
 * An optional accelerator for gametree_cli.views.result_stream: writing the
 * contract's result of a million-node tree means a million ids of the form
 * parent id + "." + position and a million `nodes` entries; in Python each
 * costs a few string objects, here a memcpy. The pure-Python path stays and
 * the tests compare the two byte for byte.
 *
 * quoted_ids(first, count, n, named, named_texts, unnamed_root, limit) -> (text, offsets) or None
 *   first, count  int64 buffers: the tree's arrays (nodes numbered so that
 *                 every child has a larger number than its parent)
 *   n             only nodes 0 .. n-1 get ids (children numbered n or more are
 *                 left out: a depth limit keeps a breadth-first prefix)
 *   named         int64 buffer: nodes whose id the file gives
 *   named_texts   tuple of bytes: each one's id, JSON-quoted, UTF-8
 *   unnamed_root  true when node 0 has no id of its own ("root"; its
 *                 children are then "1", "2", ..., not "root.1")
 *   limit         the most bytes the ids may take (None is returned beyond
 *                 it, e.g. a very deep chain, whose ids grow quadratically)
 *   text          every node's quoted id ("\"1.3.2\""), in node order
 *   offsets       int64[n + 1]: node i's id is text[offsets[i]:offsets[i + 1]]
 *
 * preorder(first, count, n) -> bytes
 *   int64 node numbers in tree order (depth first, children left to right),
 *   leaving out nodes numbered n or more (with breadth-first numbering, the
 *   nodes below a depth limit).
 *
 * join(nodes, text, offsets, sep, body_of, bodies) -> bytes
 *   for each node nodes[i] of the int64 buffer `nodes`, its quoted id followed
 *   by bodies[body_of[i]] (body_of: int32 buffer, one per item of `nodes`, so
 *   that the writer makes the bodies of one chunk of nodes at a time; both
 *   None: ids alone), the items separated by `sep`.
 *
 * ABI: 2 (join's body_of indexed by position; 1 indexed it by node number).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char ROOT_TEXT[] = "\"root\"";

/* Decimal digits of a positive int64. */
static int digits_of(int64_t k) {
    int d = 1;
    while (k >= 10) {
        k /= 10;
        d++;
    }
    return d;
}

static char *put_decimal(char *out, int64_t k, int d) {
    char *end = out + d;
    char *p = end;
    do {
        *--p = (char)('0' + k % 10);
        k /= 10;
    } while (k);
    return end;
}

static int int64_buffer(Py_buffer *view, const char *what) {
    if (view->len % 8) {
        PyErr_Format(PyExc_ValueError, "%s: not an int64 buffer", what);
        return -1;
    }
    return 0;
}

static PyObject *rt_quoted_ids(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer first_b = {0}, count_b = {0}, named_b = {0};
    Py_ssize_t n;
    PyObject *named_texts, *limit_obj;
    int unnamed_root;
    if (!PyArg_ParseTuple(args, "y*y*ny*O!pO", &first_b, &count_b, &n, &named_b, &PyTuple_Type, &named_texts,
                          &unnamed_root, &limit_obj))
        return NULL;
    PyObject *result = NULL;
    int64_t *offsets = NULL;
    int32_t *name_of = NULL;
    PyObject *text_obj = NULL, *offsets_obj = NULL;
    if (int64_buffer(&first_b, "first") || int64_buffer(&count_b, "count") || int64_buffer(&named_b, "named"))
        goto done;
    const int64_t *first = (const int64_t *)first_b.buf, *count = (const int64_t *)count_b.buf;
    const int64_t *named = (const int64_t *)named_b.buf;
    Py_ssize_t total = first_b.len / 8, n_named = named_b.len / 8;
    if (count_b.len / 8 != total || n < 1 || n > total || PyTuple_GET_SIZE(named_texts) != n_named) {
        PyErr_SetString(PyExc_ValueError, "quoted_ids: inconsistent sizes");
        goto done;
    }
    int64_t limit = INT64_MAX;
    if (limit_obj != Py_None) {
        limit = PyLong_AsLongLong(limit_obj);
        if (limit == -1 && PyErr_Occurred()) goto done;
    }
    name_of = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    offsets = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    if (!name_of || !offsets) {
        PyErr_NoMemory();
        goto done;
    }
    memset(name_of, 0xff, (size_t)n * sizeof(int32_t)); /* -1: no name */
    for (Py_ssize_t i = 0; i < n_named; i++) {
        if (!PyBytes_Check(PyTuple_GET_ITEM(named_texts, i)) || named[i] < 0 || named[i] >= total || i > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "quoted_ids: bad named node");
            goto done;
        }
        if (named[i] < n) name_of[named[i]] = (int32_t)i;
    }
    /* pass 1: lengths into offsets[i + 1] (a parent's is final before its children's) */
    memset(offsets, 0, (size_t)(n + 1) * sizeof(int64_t));
    offsets[1] = name_of[0] >= 0 ? PyBytes_GET_SIZE(PyTuple_GET_ITEM(named_texts, name_of[0])) : 6;
    if (offsets[1] < 2) {
        PyErr_SetString(PyExc_ValueError, "quoted_ids: a named id is not quoted");
        goto done;
    }
    int64_t sum = offsets[1];
    for (Py_ssize_t p = 0; p < n; p++) {
        int64_t c0 = first[p], k = count[p];
        if (k <= 0) continue;
        if (c0 <= p || c0 > total - k) {
            PyErr_SetString(PyExc_ValueError, "quoted_ids: a child numbered before its parent");
            goto done;
        }
        if (offsets[p + 1] < 2) {
            PyErr_SetString(PyExc_ValueError, "quoted_ids: a node no parent reaches has children");
            goto done;
        }
        /* quoted parent id minus its closing quote, plus "." (just the opening quote for an unnamed root) */
        int64_t prefix = (p == 0 && unnamed_root) ? 1 : offsets[p + 1];
        for (int64_t j = 0; j < k && c0 + j < n; j++) {
            int64_t c = c0 + j;
            int64_t len = name_of[c] >= 0 ? PyBytes_GET_SIZE(PyTuple_GET_ITEM(named_texts, name_of[c]))
                                          : prefix + digits_of(j + 1) + 1;
            if (len < 2 || offsets[c + 1] != 0) {
                PyErr_SetString(PyExc_ValueError, "quoted_ids: not a tree (a node with two parents, or a short name)");
                goto done;
            }
            offsets[c + 1] = len;
            sum += len;
        }
        if (sum > limit) {
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) offsets[i + 1] += offsets[i];
    text_obj = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)offsets[n]);
    if (!text_obj) goto done;
    char *text = PyBytes_AS_STRING(text_obj);
    /* pass 2: each id from its parent's, already written */
    if (name_of[0] >= 0)
        memcpy(text, PyBytes_AS_STRING(PyTuple_GET_ITEM(named_texts, name_of[0])), (size_t)offsets[1]);
    else
        memcpy(text, ROOT_TEXT, 6);
    for (Py_ssize_t p = 0; p < n; p++) {
        int64_t c0 = first[p], k = count[p];
        if (k <= 0) continue;
        int bare = p == 0 && unnamed_root;
        const char *parent = text + offsets[p];
        int64_t parent_len = offsets[p + 1] - offsets[p];
        for (int64_t j = 0; j < k && c0 + j < n; j++) {
            int64_t c = c0 + j;
            char *out = text + offsets[c];
            if (name_of[c] >= 0) {
                PyObject *name = PyTuple_GET_ITEM(named_texts, name_of[c]);
                memcpy(out, PyBytes_AS_STRING(name), (size_t)PyBytes_GET_SIZE(name));
                continue;
            }
            if (bare) {
                *out++ = '"';
            } else {
                memcpy(out, parent, (size_t)(parent_len - 1));
                out += parent_len - 1;
                *out++ = '.';
            }
            out = put_decimal(out, j + 1, digits_of(j + 1));
            *out = '"';
        }
    }
    offsets_obj = PyBytes_FromStringAndSize((const char *)offsets, (Py_ssize_t)((n + 1) * sizeof(int64_t)));
    if (!offsets_obj) goto done;
    result = PyTuple_Pack(2, text_obj, offsets_obj);
done:
    Py_XDECREF(text_obj);
    Py_XDECREF(offsets_obj);
    free(name_of);
    free(offsets);
    PyBuffer_Release(&first_b);
    PyBuffer_Release(&count_b);
    PyBuffer_Release(&named_b);
    return result;
}

static PyObject *rt_preorder(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer first_b = {0}, count_b = {0};
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*y*n", &first_b, &count_b, &n)) return NULL;
    PyObject *result = NULL;
    int64_t *stack = NULL;
    if (int64_buffer(&first_b, "first") || int64_buffer(&count_b, "count")) goto done;
    const int64_t *first = (const int64_t *)first_b.buf, *count = (const int64_t *)count_b.buf;
    Py_ssize_t total = first_b.len / 8;
    if (count_b.len / 8 != total || n < 1 || n > total) {
        PyErr_SetString(PyExc_ValueError, "preorder: inconsistent sizes");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
    stack = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    if (!result || !stack) {
        if (result) PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    Py_ssize_t m = 0, sp = 0;
    stack[sp++] = 0;
    while (sp) {
        int64_t node = stack[--sp];
        out[m++] = node;
        int64_t c0 = first[node], k = count[node];
        if (k <= 0) continue;
        if (c0 <= node || c0 > total - k) {
            PyErr_SetString(PyExc_ValueError, "preorder: a child numbered before its parent");
            Py_CLEAR(result);
            goto done;
        }
        for (int64_t c = (c0 + k < n ? c0 + k : n) - 1; c >= c0; c--) {
            if (m + sp >= n) { /* more nodes than numbers: some node has two parents */
                PyErr_SetString(PyExc_ValueError, "preorder: not a tree");
                Py_CLEAR(result);
                goto done;
            }
            stack[sp++] = c;
        }
    }
    if (m != n && _PyBytes_Resize(&result, m * (Py_ssize_t)sizeof(int64_t)) < 0) result = NULL;
done:
    free(stack);
    PyBuffer_Release(&first_b);
    PyBuffer_Release(&count_b);
    return result;
}

static PyObject *rt_join(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer nodes_b = {0}, text_b = {0}, offsets_b = {0}, sep_b = {0}, body_b = {0};
    PyObject *body_obj, *bodies;
    if (!PyArg_ParseTuple(args, "y*y*y*y*OO", &nodes_b, &text_b, &offsets_b, &sep_b, &body_obj, &bodies)) return NULL;
    PyObject *result = NULL;
    int with_bodies = body_obj != Py_None;
    if (int64_buffer(&nodes_b, "nodes") || int64_buffer(&offsets_b, "offsets")) goto done;
    if (with_bodies) {
        if (PyObject_GetBuffer(body_obj, &body_b, PyBUF_SIMPLE) < 0) goto done;
        if (body_b.len % 4 || !PyTuple_Check(bodies)) {
            PyErr_SetString(PyExc_ValueError, "join: body_of must be an int32 buffer and bodies a tuple");
            goto done;
        }
    }
    const int64_t *nodes = (const int64_t *)nodes_b.buf, *offsets = (const int64_t *)offsets_b.buf;
    const int32_t *body_of = (const int32_t *)body_b.buf;
    Py_ssize_t m = nodes_b.len / 8, n = offsets_b.len / 8 - 1, n_body = body_b.len / 4;
    Py_ssize_t n_bodies = with_bodies ? PyTuple_GET_SIZE(bodies) : 0;
    if (with_bodies) {
        if (n_body != m) {
            PyErr_SetString(PyExc_ValueError, "join: body_of must hold one index per node");
            goto done;
        }
        for (Py_ssize_t i = 0; i < n_bodies; i++)
            if (!PyBytes_Check(PyTuple_GET_ITEM(bodies, i))) {
                PyErr_SetString(PyExc_TypeError, "join: bodies must be bytes");
                goto done;
            }
    }
    const char *text = (const char *)text_b.buf, *sep = (const char *)sep_b.buf;
    Py_ssize_t sep_len = sep_b.len;
    int64_t size = m > 0 ? (int64_t)(m - 1) * sep_len : 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        int64_t node = nodes[i];
        if (node < 0 || node >= n || offsets[node] > offsets[node + 1] || offsets[node + 1] > text_b.len) {
            PyErr_SetString(PyExc_IndexError, "join: node out of range");
            goto done;
        }
        size += offsets[node + 1] - offsets[node];
        if (with_bodies) {
            if (body_of[i] < 0 || body_of[i] >= n_bodies) {
                PyErr_SetString(PyExc_IndexError, "join: body out of range");
                goto done;
            }
            size += PyBytes_GET_SIZE(PyTuple_GET_ITEM(bodies, body_of[i]));
        }
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    for (Py_ssize_t i = 0; i < m; i++) {
        int64_t node = nodes[i];
        if (i) {
            memcpy(out, sep, (size_t)sep_len);
            out += sep_len;
        }
        size_t len = (size_t)(offsets[node + 1] - offsets[node]);
        memcpy(out, text + offsets[node], len);
        out += len;
        if (with_bodies) {
            PyObject *body = PyTuple_GET_ITEM(bodies, body_of[i]);
            memcpy(out, PyBytes_AS_STRING(body), (size_t)PyBytes_GET_SIZE(body));
            out += PyBytes_GET_SIZE(body);
        }
    }
done:
    PyBuffer_Release(&nodes_b);
    PyBuffer_Release(&text_b);
    PyBuffer_Release(&offsets_b);
    PyBuffer_Release(&sep_b);
    if (with_bodies && body_b.obj) PyBuffer_Release(&body_b);
    return result;
}

static PyMethodDef rt_methods[] = {
    {"quoted_ids", rt_quoted_ids, METH_VARARGS,
     "quoted_ids(first, count, n, named, named_texts, unnamed_root, limit) -> (text, offsets) or None: every "
     "node's JSON-quoted id; see the module source."},
    {"preorder", rt_preorder, METH_VARARGS,
     "preorder(first, count, n) -> bytes: int64 node numbers below n in tree order."},
    {"join", rt_join, METH_VARARGS,
     "join(nodes, text, offsets, sep, body_of, bodies) -> bytes: the nodes' quoted ids, each followed by "
     "bodies[body_of[i]], separated by sep."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef rt_module = {
    PyModuleDef_HEAD_INIT, "_resulttext", "Optional compiled writer of the JSON result's ids and entries.", -1,
    rt_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__resulttext(void) {
    PyObject *module = PyModule_Create(&rt_module);
    if (module && PyModule_AddIntConstant(module, "ABI", 2) < 0) Py_CLEAR(module);
    return module;
}
