/* Scan the JSON text of a plain two-player tree file straight into gametree's flat arrays.
 *
 * An optional accelerator for gametree_cli.formats.jsonscan: json.loads builds
 * a dict per node (~260 bytes) that formats/fastbuild.py then reads once and
 * throws away. This scanner reads the text once, iteratively (an explicit
 * stack: depth is bounded by memory only), into a few C arrays per node in
 * depth-first order, then numbers the nodes breadth-first as model.py wants.
 * No Python object is made per node (only per move label and eval, which the
 * Tree keeps as Python objects anyway).
 *
 * It accepts only what fast_build accepts, and only what it is sure of: node
 * mappings with the keys type/children/value/move/p/eval/comment/label, bare
 * numbers, nested lists (the compact form), a top-level mapping with root and
 * title/description/comment/players/sum/bounds/general_sum/$schema (their
 * values come back as JSON text for the Python header code), a bare node
 * mapping, a list or a number. On anything else (an unknown or repeated key,
 * a string where a number goes, an integer beyond int64, integer leaves mixed
 * with decimals, NaN, invalid UTF-8, a syntax error, an empty list,
 * probabilities that do not sum to 1, more than max_nodes nodes, ...) it
 * "bails": it returns a short reason (a str) and the caller runs the
 * json.loads path, which accepts the file or reports the error with
 * file:line. It never raises for bad input (only MemoryError).
 *
 * scan(text, max_nodes, mode=0) -> str (why it bailed) or a tuple:
 *   kind     bytearray[n]     LEAF/MAX/MIN/CHANCE per node (model.py's codes)
 *   count    bytearray[8n]    int64 children per node
 *   first    bytearray[8n]    int64 first child (0 for leaves)
 *   player   bytearray[2n]    int16 0 (MAX), 1 (MIN), -1 (leaves, chance)
 *   leaf     bytearray[8n]    int64 or float64 leaf values (0 at inner nodes)
 *   is_float bool             the leaves are decimals
 *   prob     list[n] | None   edge probabilities (None under non-chance parents)
 *   exact    (bytearray[8n], int) | None   the probabilities as int64 numerators over
 *                             one denominator (numeric._exact_probabilities), or None:
 *                             no chance node, or Python must work it out
 *   evals    dict             node -> int | float, inner nodes only
 *   moves    dict             node -> str
 *   header   dict             top-level key -> JSON text of its value
 * with nodes numbered breadth-first (children of a node are contiguous and
 * follow those of every node before it), dicts in node order.
 *
 * Mode 1 bails with (why, offset, path) instead of why: offset is where the
 * scan stood (bytes of the UTF-8 text, just past what it refused; -1 for a
 * bail while numbering, e.g. probabilities), path the child positions from
 * the root to the node it was reading. Python reads the few nodes on that
 * path to word the error (formats/partial.py): a bad file is refused without
 * a json.loads of the whole text. Mode 2 only checks: it reads on past "id"
 * keys (which bail the build: the builders cannot build ids fast), lets
 * integer and decimal leaves mix, keeps no moves, and returns None when it
 * finds nothing to bail at.
 *
 * skip(text, index) -> the end of the JSON value at index (see its section).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* model.py's kinds */
enum { LEAF = 0, MAX = 1, MIN = 2, CHANCE = 3 };

/* per-node flags (depth-first scan) */
#define F_TYPE 3          /* declared type: 0 none, else MAX/MIN/CHANCE */
#define F_INNER 4         /* has children */
#define F_FLOAT 8         /* its value is a decimal */
#define F_HAS_P 16        /* the key p is present (even null) */
#define F_P 32            /* p is given (not null) */
#define F_P_FLOAT 64      /* ... and is a decimal */
#define F_EVAL 128        /* an eval record exists */
#define F_MOVE 256        /* a move record exists */
#define F_VALUE 512       /* a value (not null) is given */

/* keys: node keys first, then those only the top-level mapping has */
enum {
    K_TYPE, K_CHILDREN, K_VALUE, K_MOVE, K_P, K_EVAL, K_COMMENT, K_LABEL,
    K_ROOT, K_TITLE, K_DESCRIPTION, K_PLAYERS, K_SUM, K_BOUNDS, K_GENERAL_SUM, K_SCHEMA,
    K_ID, /* a node key the fast builders cannot build: bails, except when checking */
    N_KEYS
};
static const char *KEY_NAMES[N_KEYS] = {
    "type", "children", "value", "move", "p", "eval", "comment", "label",
    "root", "title", "description", "players", "sum", "bounds", "general_sum", "$schema", "id",
};
#define NODE_ONLY_KEYS ((1u << K_TYPE) | (1u << K_CHILDREN) | (1u << K_VALUE) | (1u << K_MOVE) | (1u << K_P) | \
                        (1u << K_EVAL) | (1u << K_LABEL) | (1u << K_ID))
#define TOP_ONLY_KEYS 0xFE00u /* K_ROOT and above, but K_ROOT is tested on its own */

/* stack frames */
enum { FR_OBJ, FR_TOP, FR_CHILDREN, FR_LIST };

typedef struct {
    uint8_t kind;
    uint8_t unused;
    uint32_t seen; /* objects: keys read so far */
    int32_t d;     /* the node */
    int32_t kids;  /* arrays: elements so far */
} Frame;

typedef struct {
    int32_t d;
    int32_t is_float;
    int64_t bits; /* int64, or a double's bits */
} EvalRec;

typedef struct {
    int32_t d;
    PyObject *text;
} MoveRec;

typedef struct {
    const unsigned char *s;
    Py_ssize_t len, pos;
    /* per node, depth-first */
    int32_t *kids, *size;
    uint16_t *flags;
    int64_t *leaf; /* value: int64, or a double's bits when F_FLOAT */
    int64_t *pval; /* p, allocated at the first p */
    Py_ssize_t n, cap, limit, top_object;
    Frame *stack;
    Py_ssize_t depth, stack_cap;
    EvalRec *evals;
    Py_ssize_t n_evals, cap_evals;
    MoveRec *moves;
    Py_ssize_t n_moves, cap_moves;
    PyObject *header;
    int span_key;
    Py_ssize_t span_start;
    Py_ssize_t root;
    int any_int, any_float;
    char *buf;
    Py_ssize_t buf_cap;
    const char *why;
    int check;        /* checking, not building: ids are read, leaves may mix, moves are not kept */
    int any_p;        /* some node has the key p (only then can numbering the nodes bail) */
    Py_ssize_t where; /* a bail after the scan: the depth-first node it is about (-1: the stack says) */
} Scan;

/* a function's outcome: OK, BAIL (S->why says why) or ERROR (a Python exception is set) */
#define OK 0
#define BAIL -1
#define ERROR -2
#define FAIL(S, reason) do { (S)->why = (reason); return BAIL; } while (0)
#define TRY(call) do { int rc_ = (call); if (rc_ != OK) return rc_; } while (0)

/* Python's int() reads at most this many digits (numbers.MAX_DIGITS; sys.get_int_max_str_digits()) */
#define MAX_DIGITS 4300

/* JSON nesting (mappings and lists) the scanner reads: deeper files go to the
 * json.loads path, whose recursion stops at about 2,000,000 levels with its own
 * message (docs/limits.md); below this, that path reads them too. */
#define MAX_NESTING 1000000

/* integer leaves stay below 2**62 (numeric.LIMIT): beyond, fast_build keeps Python ints */
#define LIMIT (INT64_C(1) << 62)

static PyObject *fraction_type = NULL;

/* -- growing arrays ------------------------------------------------------------ */

static int grow(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t item) {
    if (need <= *cap) return OK;
    Py_ssize_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)item) { PyErr_NoMemory(); return ERROR; }
        c *= 2;
    }
    void *q = realloc(*p, (size_t)c * item);
    if (!q) { PyErr_NoMemory(); return ERROR; }
    *p = q;
    *cap = c;
    return OK;
}

static int grow_nodes(Scan *S) {
    Py_ssize_t c = S->cap ? S->cap * 2 : 1 << 16;
    if (c > S->limit + 2) c = S->limit + 2;
    if (c <= S->n) { PyErr_NoMemory(); return ERROR; }
    void *a = realloc(S->kids, (size_t)c * sizeof(int32_t));
    if (!a) { PyErr_NoMemory(); return ERROR; }
    S->kids = a;
    if (!(a = realloc(S->size, (size_t)c * sizeof(int32_t)))) { PyErr_NoMemory(); return ERROR; }
    S->size = a;
    if (!(a = realloc(S->flags, (size_t)c * sizeof(uint16_t)))) { PyErr_NoMemory(); return ERROR; }
    S->flags = a;
    if (!(a = realloc(S->leaf, (size_t)c * sizeof(int64_t)))) { PyErr_NoMemory(); return ERROR; }
    S->leaf = a;
    if (S->pval) {
        if (!(a = realloc(S->pval, (size_t)c * sizeof(int64_t)))) { PyErr_NoMemory(); return ERROR; }
        S->pval = a;
    }
    S->cap = c;
    return OK;
}

/* a new node, numbered depth-first; *d is its number */
static int new_node(Scan *S, Py_ssize_t *d) {
    if (S->n - S->top_object >= S->limit) FAIL(S, "more nodes than max_nodes");
    if (S->n == S->cap) TRY(grow_nodes(S));
    Py_ssize_t i = S->n++;
    S->kids[i] = 0;
    S->size[i] = 1;
    S->flags[i] = 0;
    S->leaf[i] = 0;
    *d = i;
    return OK;
}

static int push(Scan *S, int kind, Py_ssize_t d) {
    if (S->depth >= MAX_NESTING) FAIL(S, "nested too deeply");
    if (S->depth == S->stack_cap) TRY(grow((void **)&S->stack, &S->stack_cap, S->depth + 1, sizeof(Frame)));
    Frame *f = &S->stack[S->depth++];
    f->kind = (uint8_t)kind;
    f->unused = 0;
    f->seen = 0;
    f->d = (int32_t)d;
    f->kids = 0;
    return OK;
}

/* -- tokens ------------------------------------------------------------------ */

static inline void skip_ws(Scan *S) {
    const unsigned char *s = S->s;
    Py_ssize_t pos = S->pos, len = S->len;
    while (pos < len && (s[pos] == ' ' || s[pos] == '\n' || s[pos] == '\r' || s[pos] == '\t')) pos++;
    S->pos = pos;
}

static inline int at(Scan *S, char c) { return S->pos < S->len && S->s[S->pos] == (unsigned char)c; }

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* true/false/null at pos: 1 true, 0 false, 2 null, -1 none of them */
static int literal(Scan *S) {
    Py_ssize_t left = S->len - S->pos;
    const unsigned char *p = S->s + S->pos;
    if (left >= 4 && memcmp(p, "null", 4) == 0) { S->pos += 4; return 2; }
    if (left >= 4 && memcmp(p, "true", 4) == 0) { S->pos += 4; return 1; }
    if (left >= 5 && memcmp(p, "false", 5) == 0) { S->pos += 5; return 0; }
    return -1;
}

enum { NUM_INT = 1, NUM_FLOAT = 2 };

/* A JSON number at pos, read as Python's json reads it: digits only -> int
 * (here: int64 or bail), with a fraction or exponent -> float (through
 * PyOS_string_to_double, as float() does). *kind is NUM_INT or NUM_FLOAT. */
static int read_number(Scan *S, int convert, int *kind, int64_t *iv, double *fv) {
    const unsigned char *s = S->s;
    Py_ssize_t start = S->pos, pos = S->pos, len = S->len;
    int negative = 0, is_float = 0;
    if (pos < len && s[pos] == '-') { negative = 1; pos++; }
    if (pos >= len) FAIL(S, "not a value");
    if (s[pos] == '0') pos++;
    else if (s[pos] >= '1' && s[pos] <= '9') { while (pos < len && is_digit(s[pos])) pos++; }
    else FAIL(S, "not a number (NaN, Infinity, a sign alone?)");
    Py_ssize_t int_end = pos;
    if (pos + 1 < len && s[pos] == '.' && is_digit(s[pos + 1])) {
        is_float = 1;
        pos += 2;
        while (pos < len && is_digit(s[pos])) pos++;
    }
    if (pos < len && (s[pos] == 'e' || s[pos] == 'E')) {
        Py_ssize_t e = pos + 1;
        if (e < len && (s[e] == '+' || s[e] == '-')) e++;
        if (!(e < len && is_digit(s[e]))) FAIL(S, "a number with an empty exponent");
        while (e < len && is_digit(s[e])) e++;
        is_float = 1;
        pos = e;
    }
    S->pos = pos;
    if (!is_float) {
        Py_ssize_t digits = int_end - start - negative;
        *kind = NUM_INT;
        if (!convert) { /* read and thrown away (or read again by Python): int() must take it */
            if (digits > MAX_DIGITS) FAIL(S, "an integer of more digits than int() reads");
            return OK;
        }
        if (digits > 19) FAIL(S, "an integer beyond int64");
        uint64_t acc = 0;
        for (Py_ssize_t i = start + negative; i < int_end; i++) acc = acc * 10 + (uint64_t)(s[i] - '0');
        if (negative ? acc > (uint64_t)INT64_MAX + 1 : acc > (uint64_t)INT64_MAX) FAIL(S, "an integer beyond int64");
        *iv = negative ? (int64_t)(0 - acc) : (int64_t)acc;
        return OK;
    }
    *kind = NUM_FLOAT;
    if (!convert) return OK;
    char small[64], *token = small;
    Py_ssize_t length = pos - start;
    if (length >= (Py_ssize_t)sizeof(small)) { /* e.g. 1e300 written out */
        TRY(grow((void **)&S->buf, &S->buf_cap, length + 1, 1));
        token = S->buf;
    }
    memcpy(token, s + start, (size_t)length);
    token[length] = '\0';
    char *end = NULL;
    double value = PyOS_string_to_double(token, &end, NULL);
    if (value == -1.0 && PyErr_Occurred()) { PyErr_Clear(); FAIL(S, "a decimal float() refuses"); }
    if (end != token + length) FAIL(S, "a decimal float() reads differently");
    if (!isfinite(value)) FAIL(S, "a decimal beyond float64");
    *fv = value;
    return OK;
}

/* the length of the valid UTF-8 sequence at p (at most avail bytes), or 0 */
static Py_ssize_t utf8_length(const unsigned char *p, Py_ssize_t avail) {
    unsigned char c = p[0];
    if (c < 0xC2) return 0;
    if (c < 0xE0) return (avail >= 2 && (p[1] & 0xC0) == 0x80) ? 2 : 0;
    if (c < 0xF0) {
        if (avail < 3 || (p[2] & 0xC0) != 0x80) return 0;
        unsigned char low = c == 0xE0 ? 0xA0 : 0x80, high = c == 0xED ? 0x9F : 0xBF;
        return (p[1] >= low && p[1] <= high) ? 3 : 0;
    }
    if (c < 0xF5) {
        if (avail < 4 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        unsigned char low = c == 0xF0 ? 0x90 : 0x80, high = c == 0xF4 ? 0x8F : 0xBF;
        return (p[1] >= low && p[1] <= high) ? 4 : 0;
    }
    return 0;
}

static int hex4(const unsigned char *p, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* A JSON string at pos (s[pos] == '"'), checked as Python's json checks it
 * (no control characters, known escapes) plus valid UTF-8. On return pos is
 * past the closing quote, [*start, *end) the raw contents, *escaped whether
 * there is a backslash. */
static int read_string(Scan *S, Py_ssize_t *start, Py_ssize_t *end, int *escaped, int *ascii) {
    const unsigned char *s = S->s;
    Py_ssize_t pos = S->pos + 1, len = S->len;
    *start = pos;
    *escaped = 0;
    *ascii = 1;
    for (;;) {
        while (pos < len && s[pos] >= 0x20 && s[pos] < 0x80 && s[pos] != '"' && s[pos] != '\\') pos++;
        if (pos >= len) FAIL(S, "an unterminated string");
        unsigned char c = s[pos];
        if (c == '"') break;
        if (c < 0x20) FAIL(S, "a control character in a string");
        if (c == '\\') {
            *escaped = 1;
            if (pos + 1 >= len) FAIL(S, "an unterminated string");
            unsigned char e = s[pos + 1];
            if (e == 'u') {
                unsigned unit;
                if (pos + 6 > len || hex4(s + pos + 2, &unit) < 0) FAIL(S, "an invalid \\u escape");
                pos += 6;
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
                pos += 2;
            } else {
                FAIL(S, "an invalid escape");
            }
            continue;
        }
        Py_ssize_t n = utf8_length(s + pos, len - pos); /* c >= 0x80 */
        if (!n) FAIL(S, "invalid UTF-8");
        *ascii = 0;
        pos += n;
    }
    *end = pos;
    S->pos = pos + 1;
    return OK;
}

static void put_utf8(char **out, unsigned cp) {
    char *o = *out;
    if (cp < 0x80) *o++ = (char)cp;
    else if (cp < 0x800) { *o++ = (char)(0xC0 | (cp >> 6)); *o++ = (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | (cp >> 12)); *o++ = (char)(0x80 | ((cp >> 6) & 0x3F)); *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (cp >> 18)); *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F)); *o++ = (char)(0x80 | (cp & 0x3F));
    }
    *out = o;
}

/* The str of a checked string's raw contents; a lone surrogate (which a str
 * may hold but UTF-8 may not) bails. */
static int decode_string(Scan *S, Py_ssize_t start, Py_ssize_t end, int escaped, PyObject **out) {
    const unsigned char *s = S->s;
    if (!escaped) {
        *out = PyUnicode_DecodeUTF8((const char *)s + start, end - start, NULL);
        return *out ? OK : ERROR;
    }
    TRY(grow((void **)&S->buf, &S->buf_cap, end - start + 1, 1));
    char *o = S->buf;
    Py_ssize_t pos = start;
    while (pos < end) {
        unsigned char c = s[pos];
        if (c != '\\') { *o++ = (char)c; pos++; continue; }
        unsigned char e = s[pos + 1];
        pos += 2;
        switch (e) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp;
            hex4(s + pos, &cp);
            pos += 4;
            if (cp >= 0xDC00 && cp <= 0xDFFF) FAIL(S, "a lone surrogate in a string");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned low;
                if (!(pos + 6 <= end && s[pos] == '\\' && s[pos + 1] == 'u' && hex4(s + pos + 2, &low) == 0 &&
                      low >= 0xDC00 && low <= 0xDFFF))
                    FAIL(S, "a lone surrogate in a string");
                pos += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            put_utf8(&o, cp);
            break;
        }
        default: *o++ = (char)e; /* " \ / */
        }
    }
    *out = PyUnicode_DecodeUTF8(S->buf, o - S->buf, NULL);
    return *out ? OK : ERROR;
}

/* the key at pos: one of K_*, or bail */
static int read_key(Scan *S, int *key) {
    Py_ssize_t start, end;
    int escaped, ascii;
    if (!at(S, '"')) FAIL(S, "expected a key");
    TRY(read_string(S, &start, &end, &escaped, &ascii));
    if (escaped || !ascii) FAIL(S, "a key with escapes or non-ASCII characters");
    Py_ssize_t length = end - start;
    const char *p = (const char *)S->s + start;
    int k = -1;
    switch (length) { /* the one candidate of this length and first letter, then compare */
    case 1: k = K_P; break;
    case 2: k = K_ID; break;
    case 3: k = K_SUM; break;
    case 4: k = p[0] == 't' ? K_TYPE : p[0] == 'm' ? K_MOVE : p[0] == 'e' ? K_EVAL : K_ROOT; break;
    case 5: k = p[0] == 'v' ? K_VALUE : p[0] == 'l' ? K_LABEL : K_TITLE; break;
    case 6: k = K_BOUNDS; break;
    case 7: k = p[0] == 'c' ? K_COMMENT : p[0] == 'p' ? K_PLAYERS : K_SCHEMA; break;
    case 8: k = K_CHILDREN; break;
    case 11: k = p[0] == 'd' ? K_DESCRIPTION : K_GENERAL_SUM; break;
    }
    if (k < 0 || memcmp(KEY_NAMES[k], p, (size_t)length) != 0) FAIL(S, "an unknown key");
    *key = k;
    return OK;
}

static int expect_colon(Scan *S) {
    skip_ws(S);
    if (!at(S, ':')) FAIL(S, "expected ':'");
    S->pos++;
    skip_ws(S);
    return OK;
}

/* type: "max" / "min" / "chance" in any ASCII case, or null */
static int read_type(Scan *S, Py_ssize_t d) {
    if (!at(S, '"')) {
        if (literal(S) == 2) return OK;
        FAIL(S, "a type that is not a string");
    }
    Py_ssize_t start, end;
    int escaped, ascii;
    TRY(read_string(S, &start, &end, &escaped, &ascii));
    if (escaped || !ascii) FAIL(S, "a type with escapes");
    char word[7];
    Py_ssize_t length = end - start;
    if (length != 3 && length != 6) FAIL(S, "an unknown type");
    for (Py_ssize_t i = 0; i < length; i++) {
        char c = (char)S->s[start + i];
        word[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    word[length] = '\0';
    int kind = strcmp(word, "max") == 0 ? MAX : strcmp(word, "min") == 0 ? MIN : strcmp(word, "chance") == 0 ? CHANCE : 0;
    if (!kind) FAIL(S, "an unknown type");
    S->flags[d] |= (uint16_t)kind;
    return OK;
}

/* a leaf value (a bare number or "value"): int64 below 2**62, or a finite decimal */
static int read_value(Scan *S, Py_ssize_t d) {
    int kind;
    int64_t iv = 0;
    double fv = 0;
    TRY(read_number(S, 1, &kind, &iv, &fv));
    if (kind == NUM_INT) {
        if (iv <= -LIMIT || iv >= LIMIT) FAIL(S, "an integer leaf beyond 2**62");
        S->leaf[d] = iv;
    } else {
        memcpy(&S->leaf[d], &fv, sizeof fv);
        S->flags[d] |= F_FLOAT;
    }
    S->flags[d] |= F_VALUE;
    return OK;
}

/* a leaf is complete: integer and decimal leaves may not mix (fast_build keeps Python numbers then) */
static int count_leaf(Scan *S, Py_ssize_t d) {
    if (S->check) return OK; /* nothing is built from the values */
    if (S->flags[d] & F_FLOAT) S->any_float = 1;
    else S->any_int = 1;
    if (S->any_float && S->any_int) FAIL(S, "integer and decimal leaves mixed");
    return OK;
}

static int read_move(Scan *S, Py_ssize_t d) {
    PyObject *text = NULL;
    if (S->check) { /* read, not kept: a label (any text or number) or null */
        Py_ssize_t start, end;
        int escaped, ascii, kind;
        int64_t iv;
        double fv;
        if (at(S, '"')) return read_string(S, &start, &end, &escaped, &ascii);
        if (at(S, 'n')) {
            if (literal(S) != 2) FAIL(S, "a move that is not a string or number");
            return OK;
        }
        return read_number(S, 0, &kind, &iv, &fv);
    }
    if (at(S, '"')) {
        Py_ssize_t start, end;
        int escaped, ascii;
        TRY(read_string(S, &start, &end, &escaped, &ascii));
        TRY(decode_string(S, start, end, escaped, &text));
    } else if (at(S, 'n')) {
        if (literal(S) != 2) FAIL(S, "a move that is not a string or number");
        return OK;
    } else {
        int kind;
        int64_t iv = 0;
        double fv = 0;
        TRY(read_number(S, 1, &kind, &iv, &fv));
        if (kind == NUM_INT) text = PyUnicode_FromFormat("%lld", (long long)iv);
        else {
            PyObject *number = PyFloat_FromDouble(fv);
            if (!number) return ERROR;
            text = PyObject_Str(number);
            Py_DECREF(number);
        }
        if (!text) return ERROR;
    }
    if (S->n_moves == S->cap_moves &&
        grow((void **)&S->moves, &S->cap_moves, S->n_moves + 1, sizeof(MoveRec)) != OK) {
        Py_DECREF(text);
        return ERROR;
    }
    S->moves[S->n_moves].d = (int32_t)d;
    S->moves[S->n_moves].text = text;
    S->n_moves++;
    S->flags[d] |= F_MOVE;
    return OK;
}

/* check mode: an id, which the builder takes when it is a non-empty text or an integer */
static int read_id(Scan *S) {
    Py_ssize_t start, end;
    int escaped, ascii, kind;
    int64_t iv;
    double fv;
    if (at(S, '"')) {
        TRY(read_string(S, &start, &end, &escaped, &ascii));
        if (end == start) FAIL(S, "an empty id");
        return OK;
    }
    if (!(at(S, '-') || (S->pos < S->len && is_digit(S->s[S->pos])))) FAIL(S, "an id that is not a text or number");
    TRY(read_number(S, 0, &kind, &iv, &fv));
    if (kind != NUM_INT) FAIL(S, "an id that is a decimal");
    return OK;
}

static int read_eval(Scan *S, Py_ssize_t d) {
    if (at(S, 'n')) {
        if (literal(S) != 2) FAIL(S, "an eval that is not a number");
        return OK;
    }
    int kind;
    int64_t iv = 0;
    double fv = 0;
    TRY(read_number(S, 1, &kind, &iv, &fv));
    TRY(grow((void **)&S->evals, &S->cap_evals, S->n_evals + 1, sizeof(EvalRec)));
    EvalRec *r = &S->evals[S->n_evals++];
    r->d = (int32_t)d;
    r->is_float = kind == NUM_FLOAT;
    if (kind == NUM_INT) r->bits = iv;
    else memcpy(&r->bits, &fv, sizeof fv);
    S->flags[d] |= F_EVAL;
    return OK;
}

static int read_p(Scan *S, Py_ssize_t d) {
    S->flags[d] |= F_HAS_P;
    S->any_p = 1;
    if (at(S, 'n')) {
        if (literal(S) != 2) FAIL(S, "a p that is not a number");
        return OK;
    }
    int kind;
    int64_t iv = 0;
    double fv = 0;
    TRY(read_number(S, 1, &kind, &iv, &fv));
    if (!S->pval) {
        S->pval = malloc((size_t)S->cap * sizeof(int64_t));
        if (!S->pval) { PyErr_NoMemory(); return ERROR; }
    }
    if (kind == NUM_INT) {
        if (iv < 0) FAIL(S, "a negative p");
        S->pval[d] = iv;
    } else {
        if (fv < 0) FAIL(S, "a negative p");
        memcpy(&S->pval[d], &fv, sizeof fv);
        S->flags[d] |= F_P_FLOAT;
    }
    S->flags[d] |= F_P;
    return OK;
}

/* A value read and thrown away (comment, label, header keys): a scalar, or
 * arrays of them to any depth (a counter is the only stack they need).
 * Mappings bail: a repeated key in them would have to be found. */
static int skip_value(Scan *S) {
    Py_ssize_t depth = 0;
    for (;;) {
        /* a value starts at pos */
        unsigned char c = S->pos < S->len ? S->s[S->pos] : 0;
        if (c == '[') {
            if (S->depth + depth >= MAX_NESTING) FAIL(S, "nested too deeply");
            S->pos++;
            skip_ws(S);
            if (at(S, ']')) S->pos++;
            else { depth++; continue; }
        } else if (c == '"') {
            Py_ssize_t start, end;
            int escaped, ascii;
            TRY(read_string(S, &start, &end, &escaped, &ascii));
        } else if (c == 't' || c == 'f' || c == 'n') {
            if (literal(S) < 0) FAIL(S, "not a value");
        } else if (c == '-' || is_digit(c)) {
            int kind;
            int64_t iv;
            double fv;
            TRY(read_number(S, 0, &kind, &iv, &fv));
        } else {
            FAIL(S, "a mapping (or no value) where the scanner skips values");
        }
        /* a value ended */
        for (;;) {
            if (depth == 0) return OK;
            skip_ws(S);
            if (at(S, ',')) { S->pos++; skip_ws(S); break; }
            if (at(S, ']')) { S->pos++; depth--; continue; }
            FAIL(S, "expected ',' or ']'");
        }
    }
}

/* -- the scan ------------------------------------------------------------------ */

/* a node mapping ends: leaf or inner node, as fast_build decides */
static int close_node(Scan *S, Py_ssize_t d) {
    uint16_t f = S->flags[d];
    if (f & F_INNER) {
        if (f & F_VALUE) FAIL(S, "a node with children and a value");
    } else {
        if (!(f & F_VALUE)) FAIL(S, "a leaf without a value");
        TRY(count_leaf(S, d));
    }
    S->size[d] = (int32_t)(S->n - d);
    return OK;
}

/* the top-level mapping ends: a header with root, or a bare root node */
static int close_top(Scan *S, Frame *f) {
    if (f->seen & (1u << K_ROOT)) {
        if (f->seen & NODE_ONLY_KEYS) FAIL(S, "node keys beside root");
        return OK;
    }
    if (f->seen & TOP_ONLY_KEYS) FAIL(S, "header keys in a bare root node");
    if (!(f->seen & ((1u << K_CHILDREN) | (1u << K_VALUE)))) FAIL(S, "no root");
    if (S->n > S->limit) FAIL(S, "more nodes than max_nodes");
    S->root = 0;
    return close_node(S, f->d);
}

static int record_span(Scan *S) {
    if (S->span_key < 0) return OK;
    PyObject *text = PyUnicode_DecodeUTF8((const char *)S->s + S->span_start, S->pos - S->span_start, NULL);
    if (!text) return ERROR;
    int rc = PyDict_SetItemString(S->header, KEY_NAMES[S->span_key], text);
    Py_DECREF(text);
    S->span_key = -1;
    return rc < 0 ? ERROR : OK;
}

static int scan_text(Scan *S) {
    Py_ssize_t d;
    skip_ws(S);
    if (S->pos >= S->len) FAIL(S, "no value");
    if (at(S, '{')) { /* a header mapping or a bare node mapping: node 0 either way */
        S->top_object = 1;
        TRY(new_node(S, &d));
        TRY(push(S, FR_TOP, d));
        S->pos++;
        goto object_open;
    }

node: /* a tree node starts at pos */
    {
        unsigned char c = S->pos < S->len ? S->s[S->pos] : 0;
        if (c == '{') {
            TRY(new_node(S, &d));
            TRY(push(S, FR_OBJ, d));
            S->pos++;
            goto object_open;
        }
        if (c == '[') {
            TRY(new_node(S, &d));
            S->flags[d] |= F_INNER;
            TRY(push(S, FR_LIST, d));
            S->pos++;
            skip_ws(S);
            if (at(S, ']')) FAIL(S, "an empty list");
            goto element;
        }
        if (c == '-' || is_digit(c)) {
            TRY(new_node(S, &d));
            TRY(read_value(S, d));
            TRY(count_leaf(S, d));
            goto value_end;
        }
        FAIL(S, "a node that is not a mapping, list or number");
    }

element: /* an element of a children list or compact list starts at pos */
    {
        Frame *f = &S->stack[S->depth - 1];
        if (f->kids == INT32_MAX) FAIL(S, "too many children");
        f->kids++;
        goto node;
    }

object_open: /* just after '{' */
    skip_ws(S);
    if (at(S, '}')) FAIL(S, "an empty mapping");

key: /* a key starts at pos */
    {
        Frame *f = &S->stack[S->depth - 1];
        int k;
        TRY(read_key(S, &k));
        if (f->seen & (1u << k)) FAIL(S, "a key given twice");
        f->seen |= 1u << k;
        if (k >= K_ROOT && k != K_ID && f->kind != FR_TOP) FAIL(S, "an unknown key");
        d = f->d;
        TRY(expect_colon(S));
        switch (k) {
        case K_TYPE: TRY(read_type(S, d)); break;
        case K_CHILDREN:
            if (!at(S, '[')) FAIL(S, "children that is not a list");
            S->pos++;
            S->flags[d] |= F_INNER;
            TRY(push(S, FR_CHILDREN, d));
            skip_ws(S);
            if (at(S, ']')) FAIL(S, "an empty children list");
            goto element;
        case K_VALUE:
            if (at(S, 'n')) {
                if (literal(S) != 2) FAIL(S, "a value that is not a number");
            } else {
                TRY(read_value(S, d));
            }
            break;
        case K_MOVE: TRY(read_move(S, d)); break;
        case K_P:
            if (f->kind == FR_TOP) FAIL(S, "p at the top");
            TRY(read_p(S, d));
            break;
        case K_EVAL: TRY(read_eval(S, d)); break;
        case K_ID:
            if (!S->check) FAIL(S, "an id");
            TRY(read_id(S));
            break;
        case K_ROOT: S->root = S->n; goto node;
        case K_TITLE: case K_PLAYERS: case K_SUM: case K_BOUNDS: case K_GENERAL_SUM:
            S->span_key = k;
            S->span_start = S->pos;
            TRY(skip_value(S));
            TRY(record_span(S));
            break;
        default: TRY(skip_value(S)); /* comment, label, description, $schema */
        }
        goto value_end;
    }

value_end: /* a value ended at pos: its container goes on */
    if (S->depth == 0) {
        skip_ws(S);
        if (S->pos != S->len) FAIL(S, "extra data after the tree");
        return OK;
    }
    {
        Frame *f = &S->stack[S->depth - 1];
        skip_ws(S);
        unsigned char c = S->pos < S->len ? S->s[S->pos] : 0;
        if (f->kind == FR_OBJ || f->kind == FR_TOP) {
            if (c == ',') { S->pos++; skip_ws(S); goto key; }
            if (c != '}') FAIL(S, "expected ',' or '}'");
            S->pos++;
            if (f->kind == FR_TOP) TRY(close_top(S, f));
            else TRY(close_node(S, f->d));
            S->depth--;
            goto value_end;
        }
        if (c == ',') { S->pos++; skip_ws(S); goto element; }
        if (c != ']') FAIL(S, "expected ',' or ']'");
        S->pos++;
        S->kids[f->d] = f->kids;
        if (f->kind == FR_LIST) S->size[f->d] = (int32_t)(S->n - f->d);
        S->depth--;
        goto value_end;
    }
}

/* -- breadth-first numbering and the Python results ------------------------------ */

static int by_node_eval(const void *a, const void *b) {
    int32_t x = ((const EvalRec *)a)->d, y = ((const EvalRec *)b)->d;
    return (x > y) - (x < y);
}

static int by_node_move(const void *a, const void *b) {
    int32_t x = ((const MoveRec *)a)->d, y = ((const MoveRec *)b)->d;
    return (x > y) - (x < y);
}

static Py_ssize_t find_eval(const Scan *S, int32_t d) {
    Py_ssize_t low = 0, high = S->n_evals;
    while (low < high) {
        Py_ssize_t mid = (low + high) / 2;
        if (S->evals[mid].d < d) low = mid + 1; else high = mid;
    }
    return low;
}

static Py_ssize_t find_move(const Scan *S, int32_t d) {
    Py_ssize_t low = 0, high = S->n_moves;
    while (low < high) {
        Py_ssize_t mid = (low + high) / 2;
        if (S->moves[mid].d < d) low = mid + 1; else high = mid;
    }
    return low;
}

/* Python's sum() of the decimals, as this Python adds them (3.12 compensates) */
static double python_sum(const double *x, Py_ssize_t k) {
    double total = x[0];
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (Py_ssize_t i = 1; i < k; i++) {
        double t = total + x[i];
        if (fabs(total) >= fabs(x[i])) c += (total - t) + x[i];
        else c += (x[i] - t) + total;
        total = t;
    }
    if (c && isfinite(c)) total += c;
#else
    for (Py_ssize_t i = 1; i < k; i++) total += x[i];
#endif
    return total;
}

/* math.isclose(total, 1.0, rel_tol=1e-9, abs_tol=1e-9) */
static int close_to_one(double total) {
    if (total == 1.0) return 1;
    if (isinf(total)) return 0;
    double diff = fabs(1.0 - total);
    return diff <= fabs(1e-9 * 1.0) || diff <= fabs(1e-9 * total) || diff <= 1e-9;
}

typedef struct {
    Py_ssize_t k;
    PyObject *share;
} Uniform;

/* The edge probabilities as int64 numerators over one denominator, as
 * numeric._exact_probabilities makes them. Every exact share here is 0 or
 * 1/k (uniform, or an integer p: 0 or 1), so the scan keeps k (0 for a zero
 * share) and the running lcm; exact goes 0 when a decimal comes or the lcm
 * outgrows uint64 (Python then decides). */
typedef struct {
    int64_t *unit;
    uint64_t lcm;
    int exact;
} Exact;

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}

static void exact_share(Exact *e, Py_ssize_t at, uint64_t k) {
    e->unit[at] = (int64_t)k;
    if (!e->exact || k <= 1) return;
    uint64_t step = k / gcd64(e->lcm, k);
    if (e->lcm > UINT64_MAX / step) e->exact = 0;
    else e->lcm *= step;
}

/* the probabilities of one chance node's k children (depth-first numbers kids[0..k)) into prob[at..] */
static int chance_shares(Scan *S, const int32_t *kids, Py_ssize_t k, PyObject *prob, Py_ssize_t at, Uniform *uniform,
                         Exact *exact, double **scratch, Py_ssize_t *scratch_cap) {
    Py_ssize_t given = 0, decimals = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        uint16_t f = S->flags[kids[i]];
        if (f & F_P) { given++; if (f & F_P_FLOAT) decimals++; }
    }
    if (given == 0) {
        if (uniform->k != k) {
            PyObject *share = k == 1 ? PyLong_FromLong(1) : PyObject_CallFunction(fraction_type, "nn", (Py_ssize_t)1, k);
            if (!share) return ERROR;
            Py_XSETREF(uniform->share, share);
            uniform->k = k;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            Py_INCREF(uniform->share);
            PyList_SET_ITEM(prob, at + i, uniform->share); /* replaces None, whose reference goes */
            Py_DECREF(Py_None);
            exact_share(exact, at + i, (uint64_t)k);
        }
        return OK;
    }
    if (given != k) FAIL(S, "p given to some children of a chance node only");
    if (decimals == 0) {
        int64_t total = 0;
        for (Py_ssize_t i = 0; i < k; i++) {
            int64_t p = (S->flags[kids[i]] & F_P) ? S->pval[kids[i]] : 0;
            if (p > 1) FAIL(S, "probabilities that do not sum to 1");
            total += p;
        }
        if (total != 1) FAIL(S, "probabilities that do not sum to 1");
        for (Py_ssize_t i = 0; i < k; i++) exact_share(exact, at + i, (uint64_t)S->pval[kids[i]]); /* 0 or 1 */
    } else if (decimals == k) {
        exact->exact = 0;
        TRY(grow((void **)scratch, scratch_cap, k, sizeof(double)));
        for (Py_ssize_t i = 0; i < k; i++) memcpy(&(*scratch)[i], &S->pval[kids[i]], sizeof(double));
        if (!close_to_one(python_sum(*scratch, k))) FAIL(S, "probabilities that do not sum to 1");
    } else {
        FAIL(S, "integer and decimal probabilities mixed");
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        int64_t bits = S->pval[kids[i]];
        PyObject *p;
        if (decimals) {
            double x;
            memcpy(&x, &bits, sizeof x);
            p = PyFloat_FromDouble(x);
        } else {
            p = PyLong_FromLongLong(bits);
        }
        if (!p) return ERROR;
        PyList_SET_ITEM(prob, at + i, p);
        Py_DECREF(Py_None);
    }
    return OK;
}

static inline int resolve_kind(uint16_t f, int inherited) {
    if (!(f & F_INNER)) return LEAF;
    int declared = f & F_TYPE;
    if (declared) return declared;
    return inherited == MAX ? MIN : MAX;
}

/* Number the nodes breadth-first and make the Python results (see the top of the file). */
static PyObject *results(Scan *S) {
    PyObject *result = NULL, *kind_b = NULL, *count_b = NULL, *first_b = NULL, *player_b = NULL, *leaf_b = NULL;
    PyObject *prob = NULL, *evals = NULL, *moves = NULL, *unit_b = NULL, *prob_exact = NULL;
    Exact exact = {NULL, 1, 1};
    int32_t *order = NULL, *kids = NULL;
    uint8_t *inherit = NULL;
    double *scratch = NULL;
    Py_ssize_t scratch_cap = 0, kids_cap = 0;
    Uniform uniform = {0, NULL};
    Py_ssize_t root = S->root, n = S->n - root;

    if (S->n_evals > 1) {
        int sorted = 1;
        for (Py_ssize_t i = 1; i < S->n_evals && sorted; i++) sorted = S->evals[i - 1].d < S->evals[i].d;
        if (!sorted) qsort(S->evals, (size_t)S->n_evals, sizeof(EvalRec), by_node_eval);
    }
    if (S->n_moves > 1) {
        int sorted = 1;
        for (Py_ssize_t i = 1; i < S->n_moves && sorted; i++) sorted = S->moves[i - 1].d < S->moves[i].d;
        if (!sorted) qsort(S->moves, (size_t)S->n_moves, sizeof(MoveRec), by_node_move);
    }
    if (!(kind_b = PyByteArray_FromStringAndSize(NULL, n))) goto finish;
    if (!(count_b = PyByteArray_FromStringAndSize(NULL, n * 8))) goto finish;
    if (!(first_b = PyByteArray_FromStringAndSize(NULL, n * 8))) goto finish;
    if (!(player_b = PyByteArray_FromStringAndSize(NULL, n * 2))) goto finish;
    if (!(leaf_b = PyByteArray_FromStringAndSize(NULL, n * 8))) goto finish;
    if (!(evals = PyDict_New()) || !(moves = PyDict_New())) goto finish;
    order = malloc((size_t)n * sizeof(int32_t));
    inherit = malloc((size_t)n);
    if (!order || !inherit) { PyErr_NoMemory(); goto finish; }

    uint8_t *kind = (uint8_t *)PyByteArray_AS_STRING(kind_b);
    int64_t *count = (int64_t *)PyByteArray_AS_STRING(count_b);
    int64_t *first = (int64_t *)PyByteArray_AS_STRING(first_b);
    int16_t *player = (int16_t *)PyByteArray_AS_STRING(player_b);
    int64_t *leaf = (int64_t *)PyByteArray_AS_STRING(leaf_b);

    if (S->flags[root] & F_HAS_P) { S->why = "p on the root"; S->where = root; goto finish; }
    order[0] = (int32_t)root;
    inherit[0] = 0;
    kind[0] = (uint8_t)resolve_kind(S->flags[root], 0);
    Py_ssize_t tail = 1;
    for (Py_ssize_t b = 0; b < n; b++) {
        if (b >= tail) { S->why = "internal: sizes disagree"; goto finish; }
        int32_t u = order[b];
        uint16_t f = S->flags[u];
        int k = S->kids[u], kd = kind[b];
        count[b] = k;
        first[b] = k ? tail : 0;
        player[b] = (int16_t)(kd == MAX ? 0 : kd == MIN ? 1 : -1);
        leaf[b] = k ? 0 : S->leaf[u];
        if (f & F_MOVE) {
            PyObject *key = PyLong_FromSsize_t(b);
            if (!key) goto finish;
            int rc = PyDict_SetItem(moves, key, S->moves[find_move(S, u)].text);
            Py_DECREF(key);
            if (rc < 0) goto finish;
        }
        if ((f & F_EVAL) && k) {
            EvalRec *r = &S->evals[find_eval(S, u)];
            PyObject *key = PyLong_FromSsize_t(b), *value;
            if (r->is_float) {
                double x;
                memcpy(&x, &r->bits, sizeof x);
                value = PyFloat_FromDouble(x);
            } else {
                value = PyLong_FromLongLong(r->bits);
            }
            int rc = (key && value) ? PyDict_SetItem(evals, key, value) : -1;
            Py_XDECREF(key);
            Py_XDECREF(value);
            if (rc < 0) goto finish;
        }
        if (!k) continue;
        if (tail + k > n) { S->why = "internal: sizes disagree"; goto finish; }
        int below = (kd == MAX || kd == MIN) ? kd : inherit[b];
        int chance = kd == CHANCE;
        int32_t c = u + 1;
        if (chance && grow((void **)&kids, &kids_cap, k, sizeof(int32_t)) != OK) goto finish;
        for (int i = 0; i < k; i++) {
            if (c >= S->n) { S->why = "internal: sizes disagree"; goto finish; }
            uint16_t fc = S->flags[c];
            if ((fc & F_HAS_P) && !chance) { S->why = "p under a node that is not a chance node"; S->where = c; goto finish; }
            int kc = resolve_kind(fc, below);
            order[tail + i] = c;
            kind[tail + i] = (uint8_t)kc;
            inherit[tail + i] = (uint8_t)below;
            if (chance) kids[i] = c;
            c += S->size[c];
        }
        if (chance) {
            if (!prob) {
                if (!(prob = PyList_New(n))) goto finish;
                for (Py_ssize_t i = 0; i < n; i++) { Py_INCREF(Py_None); PyList_SET_ITEM(prob, i, Py_None); }
                if (!(unit_b = PyByteArray_FromStringAndSize(NULL, n * 8))) goto finish;
                exact.unit = (int64_t *)PyByteArray_AS_STRING(unit_b);
                memset(exact.unit, 0, (size_t)n * 8);
            }
            S->where = u; /* a bail below is about this chance node */
            int rc = chance_shares(S, kids, k, prob, tail, &uniform, &exact, &scratch, &scratch_cap);
            if (rc != OK) goto finish;
        }
        tail += k;
    }
    if (tail != n) { S->why = "internal: sizes disagree"; goto finish; }
    if (prob && exact.exact) { /* numerators lcm / k; p <= 1, so they fit when the lcm does */
        int fits = exact.lcm <= (uint64_t)INT64_MAX;
        for (Py_ssize_t i = 0; i < n && fits; i++) {
            uint64_t k = (uint64_t)exact.unit[i];
            uint64_t numerator = k ? exact.lcm / k : 0;
            fits = numerator <= (uint64_t)INT64_MAX;
            exact.unit[i] = (int64_t)numerator;
        }
        if (fits) {
            PyObject *denominator = PyLong_FromUnsignedLongLong(exact.lcm);
            if (!denominator) goto finish;
            prob_exact = PyTuple_Pack(2, unit_b, denominator);
            Py_DECREF(denominator);
            if (!prob_exact) goto finish;
        }
    }
    if (!prob) { Py_INCREF(Py_None); prob = Py_None; }
    if (!prob_exact) { Py_INCREF(Py_None); prob_exact = Py_None; }
    result = Py_BuildValue("(OOOOOOOOOOO)", kind_b, count_b, first_b, player_b, leaf_b,
                           S->any_float ? Py_True : Py_False, prob, prob_exact, evals, moves, S->header);
finish:
    Py_XDECREF(kind_b); Py_XDECREF(count_b); Py_XDECREF(first_b); Py_XDECREF(player_b); Py_XDECREF(leaf_b);
    Py_XDECREF(prob); Py_XDECREF(evals); Py_XDECREF(moves); Py_XDECREF(uniform.share);
    Py_XDECREF(unit_b); Py_XDECREF(prob_exact);
    free(order); free(inherit); free(kids); free(scratch);
    return result;
}

static void release(Scan *S) {
    free(S->kids); free(S->size); free(S->flags); free(S->leaf); free(S->pval);
    free(S->stack); free(S->evals); free(S->buf);
    for (Py_ssize_t i = 0; i < S->n_moves; i++) Py_DECREF(S->moves[i].text);
    free(S->moves);
    Py_XDECREF(S->header);
}

/* -- where a bail happened: the path of child positions from the root ------------- */

static int append_index(PyObject *list, Py_ssize_t index) {
    PyObject *item = PyLong_FromSsize_t(index);
    if (!item) return ERROR;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc < 0 ? ERROR : OK;
}

/* the path of depth-first node u (after a complete scan: every size is known) */
static int dfs_path(const Scan *S, Py_ssize_t u, PyObject *path) {
    Py_ssize_t node = S->root;
    while (node != u) {
        if (u <= node || u >= node + S->size[node]) return OK; /* not below: stop (internal bails) */
        Py_ssize_t child = node + 1, index = 0;
        while (child + S->size[child] <= u) { child += S->size[child]; index++; }
        TRY(append_index(path, index));
        node = child;
    }
    return OK;
}

/* the path of the node being read when the scan bailed: the element open in each list */
static int stack_path(const Scan *S, PyObject *path) {
    for (Py_ssize_t i = 0; i < S->depth && S->stack; i++) {
        const Frame *f = &S->stack[i];
        if ((f->kind == FR_CHILDREN || f->kind == FR_LIST) && f->kids > 0) TRY(append_index(path, f->kids - 1));
    }
    return OK;
}

/* (why, offset, path): offset is where the scan stood (bytes of the UTF-8 text; -1 for
 * a bail after the scan), path the child positions from the root down to the node. */
static PyObject *bail_details(const Scan *S) {
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    int rc = S->where >= 0 ? dfs_path(S, S->where, path) : stack_path(S, path);
    PyObject *tuple = rc == OK ? PyList_AsTuple(path) : NULL;
    Py_DECREF(path);
    if (!tuple) return NULL;
    return Py_BuildValue("(snN)", S->why ? S->why : "unknown", S->where >= 0 ? (Py_ssize_t)-1 : S->pos, tuple);
}

enum { MODE_BUILD = 0, MODE_WHERE = 1, MODE_CHECK = 2 };

static PyObject *jsonscan_scan(PyObject *self, PyObject *args) {
    PyObject *text, *encoded = NULL;
    Py_ssize_t max_nodes;
    int mode = MODE_BUILD;
    Py_buffer view = {0};
    int have_view = 0;
    if (!PyArg_ParseTuple(args, "On|i", &text, &max_nodes, &mode)) return NULL;
    if (!fraction_type) {
        PyObject *module = PyImport_ImportModule("fractions");
        if (!module) return NULL;
        fraction_type = PyObject_GetAttrString(module, "Fraction");
        Py_DECREF(module);
        if (!fraction_type) return NULL;
    }
    Scan scan = {0};
    Scan *S = &scan;
    if (PyUnicode_Check(text)) {
        if (PyUnicode_READY(text) < 0) return NULL;
        if (PyUnicode_IS_ASCII(text)) { /* the common case: the str's own bytes */
            S->s = (const unsigned char *)PyUnicode_DATA(text);
            S->len = PyUnicode_GET_LENGTH(text);
        } else { /* a temporary UTF-8 copy (not the str's cached one, which would live as long as the text) */
            encoded = PyUnicode_AsUTF8String(text);
            if (!encoded) { PyErr_Clear(); return PyUnicode_FromString("text that is not valid Unicode"); }
            S->s = (const unsigned char *)PyBytes_AS_STRING(encoded);
            S->len = PyBytes_GET_SIZE(encoded);
        }
    } else {
        if (PyObject_GetBuffer(text, &view, PyBUF_SIMPLE) < 0) return NULL;
        have_view = 1;
        S->s = (const unsigned char *)view.buf;
        S->len = view.len;
    }
    S->limit = max_nodes < 0 ? 0 : max_nodes;
    if (S->limit > INT32_MAX - 2) S->limit = INT32_MAX - 2;
    S->span_key = -1;
    S->root = 0;
    S->where = -1;
    S->check = mode == MODE_CHECK;
    PyObject *result = NULL;
    if (!(S->header = PyDict_New())) goto finish;
    int rc = scan_text(S);
    if (rc == ERROR) goto finish;
    if (rc == OK && S->check && !S->any_p) { /* checked: numbering the nodes would find nothing more */
        Py_INCREF(Py_None);
        result = Py_None;
        goto finish;
    }
    if (rc == OK) {
        /* the depth-first arrays are no longer needed once numbered: results() frees its own */
        free(S->stack); S->stack = NULL;
        S->depth = 0;
        result = results(S);
        if (!result && !PyErr_Occurred() && !S->why) S->why = "internal error";
        if (result && S->check) Py_SETREF(result, Py_NewRef(Py_None));
    }
    if (!result && !PyErr_Occurred())
        result = mode == MODE_BUILD ? PyUnicode_FromString(S->why ? S->why : "unknown") : bail_details(S);
finish:
    release(S);
    if (have_view) PyBuffer_Release(&view);
    Py_XDECREF(encoded);
    return result;
}


/* -- skip: the end of one JSON value, for Python code that reads a small part of a big file --
 *
 * skip(text, index, check=True) -> the index just past the JSON value that starts
 * at index (after any whitespace), or -1 when json.loads would refuse it, or might:
 * the JSON grammar as json.loads reads it (strings with valid escapes and no
 * control characters, numbers, true/false/null, NaN/Infinity/-Infinity,
 * arrays, objects with text keys), no key twice in one object (keys with
 * escapes, and objects of more than SKIP_KEYS keys, are json.loads' to judge:
 * -1), no integer of more than MAX_DIGITS digits (with check false: the
 * grammar only, for a locator in a text json.loads has read). So a file whose every part
 * is skipped or decoded without a -1 is one json.loads reads. Indexes count
 * the characters of a str (or the bytes of a bytes-like object): they are the
 * str's own. No Python object is made: a 40 MB subtree takes tens of
 * milliseconds. */

#define SKIP_KEYS 256

typedef struct {
    char *open;       /* per open container: '[' or '{' */
    Py_ssize_t *base; /* per open container: where its keys start in keys */
    Py_ssize_t *keys; /* (start, length) of the keys of the open objects */
    Py_ssize_t open_cap, base_cap, keys_cap;
    int lenient; /* skip(text, index, 0): keys and integer lengths are not checked (a locator's skip) */
} Skip;

static int hex_digit(Py_UCS4 c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

#define SKIP_SPACE while (pos < len && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r')) pos++
#define SKIP_DIGITS while (pos < len && s[pos] >= '0' && s[pos] <= '9') pos++

#define SKIP_FUNCTION(NAME, CHAR)                                                                          \
static Py_ssize_t NAME(const CHAR *s, Py_ssize_t len, Py_ssize_t pos, Skip *k) {                          \
    Py_ssize_t depth = 0, n_keys = 0;                                                                      \
    int is_key = 0;                                                                                        \
    for (;;) {                                                                                             \
        SKIP_SPACE; /* a value starts */                                                                   \
        if (pos >= len) return -1;                                                                         \
        Py_UCS4 c = s[pos];                                                                                \
        if (c == '[' || c == '{') {                                                                        \
            if (depth + 1 > k->base_cap &&                                                                 \
                (grow((void **)&k->open, &k->open_cap, depth + 1, 1) != OK ||                              \
                 grow((void **)&k->base, &k->base_cap, depth + 1, sizeof(Py_ssize_t)) != OK)) return -2;   \
            k->open[depth] = (char)c;                                                                      \
            k->base[depth++] = n_keys;                                                                     \
            pos++;                                                                                         \
            SKIP_SPACE;                                                                                    \
            if (pos < len && s[pos] == (c == '[' ? ']' : '}')) { pos++; depth--; goto after; }             \
            if (c == '[') continue;                                                                        \
            goto key;                                                                                      \
        }                                                                                                  \
        if (c == '"') { is_key = 0; goto string; }                                                         \
        if (c == 't' || c == 'f' || c == 'n' || c == 'N' || c == 'I' || (c == '-' && pos + 1 < len && s[pos + 1] == 'I')) { \
            const char *word = c == 't' ? "true" : c == 'f' ? "false" : c == 'n' ? "null" : c == 'N' ? "NaN" :   \
                               c == 'I' ? "Infinity" : "-Infinity";                                        \
            Py_ssize_t n = (Py_ssize_t)strlen(word);                                                       \
            if (pos + n > len) return -1;                                                                  \
            for (Py_ssize_t i = 0; i < n; i++)                                                             \
                if (s[pos + i] != (CHAR)word[i]) return -1;                                                \
            pos += n;                                                                                      \
            goto after;                                                                                    \
        }                                                                                                  \
        if (c == '-' || (c >= '0' && c <= '9')) { /* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)? */     \
            if (c == '-') pos++;                                                                           \
            Py_ssize_t digits = pos;                                                                       \
            if (pos >= len || !(s[pos] >= '0' && s[pos] <= '9')) return -1;                                \
            if (s[pos] == '0') pos++;                                                                      \
            else SKIP_DIGITS;                                                                              \
            digits = pos - digits;                                                                         \
            int integer = 1;                                                                               \
            if (pos + 1 < len && s[pos] == '.' && s[pos + 1] >= '0' && s[pos + 1] <= '9') {                \
                pos += 2;                                                                                  \
                SKIP_DIGITS;                                                                               \
                integer = 0;                                                                               \
            }                                                                                              \
            if (pos < len && (s[pos] == 'e' || s[pos] == 'E')) {                                           \
                Py_ssize_t e = pos + 1;                                                                    \
                if (e < len && (s[e] == '+' || s[e] == '-')) e++;                                          \
                if (e < len && s[e] >= '0' && s[e] <= '9') {                                               \
                    pos = e;                                                                               \
                    SKIP_DIGITS;                                                                           \
                    integer = 0;                                                                           \
                }                                                                                          \
            }                                                                                              \
            if (integer && digits > MAX_DIGITS && !k->lenient) return -1; /* int() refuses it */           \
            goto after;                                                                                    \
        }                                                                                                  \
        return -1;                                                                                         \
    key: /* after '{' or ',' in an object: "key" : value */                                                \
        SKIP_SPACE;                                                                                        \
        if (pos >= len || s[pos] != '"') return -1;                                                        \
        is_key = 1;                                                                                        \
    string: { /* s[pos] is the opening quote */                                                            \
        Py_ssize_t start = ++pos;                                                                          \
        int escaped = 0;                                                                                   \
        for (;;) {                                                                                         \
            while (pos < len && s[pos] != '"' && s[pos] != '\\' && s[pos] >= 0x20) pos++;                  \
            if (pos >= len || s[pos] < 0x20) return -1;                                                    \
            if (s[pos] == '"') break;                                                                      \
            escaped = 1;                                                                                   \
            if (pos + 1 >= len) return -1;                                                                 \
            Py_UCS4 e = s[pos + 1];                                                                        \
            if (e == 'u') {                                                                                \
                if (pos + 6 > len || !hex_digit(s[pos + 2]) || !hex_digit(s[pos + 3]) ||                   \
                    !hex_digit(s[pos + 4]) || !hex_digit(s[pos + 5])) return -1;                           \
                pos += 6;                                                                                  \
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') { \
                pos += 2;                                                                                  \
            } else {                                                                                       \
                return -1;                                                                                 \
            }                                                                                              \
        }                                                                                                  \
        Py_ssize_t length = pos++ - start;                                                                 \
        if (is_key && k->lenient) { /* ':' and the value */                                                \
            SKIP_SPACE;                                                                                    \
            if (pos >= len || s[pos] != ':') return -1;                                                    \
            pos++;                                                                                         \
            continue;                                                                                      \
        }                                                                                                  \
        if (is_key) { /* not given before in this object; then ':' and the value */                       \
            Py_ssize_t from = k->base[depth - 1];                                                          \
            Py_ssize_t *keys = k->keys;                                                                    \
            if (escaped || n_keys - from >= 2 * SKIP_KEYS) return -1;                                      \
            for (Py_ssize_t i = from; i < n_keys; i += 2)                                                  \
                if (keys[i + 1] == length && s[keys[i]] == s[start] &&                                     \
                    memcmp(s + keys[i], s + start, (size_t)length * sizeof(CHAR)) == 0)                    \
                    return -1;                                                                             \
            if (n_keys + 2 > k->keys_cap) {                                                                \
                if (grow((void **)&k->keys, &k->keys_cap, n_keys + 2, sizeof(Py_ssize_t)) != OK) return -2; \
                keys = k->keys;                                                                            \
            }                                                                                              \
            keys[n_keys++] = start;                                                                        \
            keys[n_keys++] = length;                                                                       \
            SKIP_SPACE;                                                                                    \
            if (pos >= len || s[pos] != ':') return -1;                                                    \
            pos++;                                                                                         \
            continue;                                                                                      \
        }                                                                                                  \
    }                                                                                                      \
    after: /* a value ended at pos */                                                                      \
        for (;;) {                                                                                         \
            if (depth == 0) return pos;                                                                    \
            SKIP_SPACE;                                                                                    \
            if (pos >= len) return -1;                                                                     \
            char open = k->open[depth - 1];                                                                \
            if (s[pos] == ',') {                                                                           \
                pos++;                                                                                     \
                if (open == '{') goto key;                                                                 \
                break;                                                                                     \
            }                                                                                              \
            if (s[pos] != (open == '[' ? ']' : '}')) return -1;                                            \
            pos++;                                                                                         \
            n_keys = k->base[--depth]; /* its keys are done with */                                        \
        }                                                                                                  \
    }                                                                                                      \
}

SKIP_FUNCTION(skip_ucs1, Py_UCS1)
SKIP_FUNCTION(skip_ucs2, Py_UCS2)
SKIP_FUNCTION(skip_ucs4, Py_UCS4)

/* a text to skip in: its characters (a str of any kind, or bytes) */
typedef struct {
    const void *data;
    int kind; /* 1, 2 or 4 bytes a character */
    Py_ssize_t len;
    Py_buffer view;
    int have_view;
} SkipText;

static int skip_text(PyObject *text, SkipText *t) {
    t->have_view = 0;
    if (PyUnicode_Check(text)) {
        if (PyUnicode_READY(text) < 0) return ERROR;
        t->data = PyUnicode_DATA(text);
        t->kind = PyUnicode_KIND(text);
        t->len = PyUnicode_GET_LENGTH(text);
        return OK;
    }
    if (PyObject_GetBuffer(text, &t->view, PyBUF_SIMPLE) < 0) return ERROR;
    t->have_view = 1;
    t->data = t->view.buf;
    t->kind = 1;
    t->len = t->view.len;
    return OK;
}

static Py_ssize_t skip_one(const SkipText *t, Py_ssize_t index, Skip *k) {
    if (index < 0 || index > t->len) return -1;
    if (t->kind == PyUnicode_1BYTE_KIND) return skip_ucs1(t->data, t->len, index, k);
    if (t->kind == PyUnicode_2BYTE_KIND) return skip_ucs2(t->data, t->len, index, k);
    return skip_ucs4(t->data, t->len, index, k);
}

static Py_UCS4 skip_char(const SkipText *t, Py_ssize_t i) {
    return i < t->len ? PyUnicode_READ(t->kind, t->data, i) : 0;
}

static Py_ssize_t skip_space(const SkipText *t, Py_ssize_t i) {
    for (;; i++) {
        Py_UCS4 c = skip_char(t, i);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return i;
    }
}

static void skip_release(SkipText *t, Skip *k) {
    if (t->have_view) PyBuffer_Release(&t->view);
    free(k->open);
    free(k->base);
    free(k->keys);
}

static PyObject *jsonscan_skip(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t index;
    int check = 1;
    if (!PyArg_ParseTuple(args, "On|p", &text, &index, &check)) return NULL;
    SkipText t;
    Skip k = {0};
    k.lenient = !check;
    if (skip_text(text, &t) != OK) return NULL;
    Py_ssize_t end = skip_one(&t, index, &k);
    skip_release(&t, &k);
    if (end == -2) return NULL; /* out of memory */
    return PyLong_FromSsize_t(end);
}

/* skip_items(text, index, limit) -> (count, next, closed): skip up to limit elements
 * (all of them if limit < 0) of the array whose element starts at index: how many,
 * where the next one starts (closed false) or the index just past ']' (closed true);
 * count -1 when the array is not JSON as skip() checks it. A flat node of a million
 * children is counted in one call. */
static PyObject *jsonscan_skip_items(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t index, limit, count = 0;
    int closed = 0;
    if (!PyArg_ParseTuple(args, "Onn", &text, &index, &limit)) return NULL;
    SkipText t;
    Skip k = {0};
    if (skip_text(text, &t) != OK) return NULL;
    while (limit < 0 || count < limit) {
        Py_ssize_t end = skip_one(&t, index, &k);
        if (end < 0) { count = end; break; }
        count++;
        end = skip_space(&t, end);
        Py_UCS4 c = skip_char(&t, end);
        if (c == ']') { index = end + 1; closed = 1; break; }
        if (c != ',') { count = -1; break; }
        index = skip_space(&t, end + 1);
    }
    skip_release(&t, &k);
    if (count == -2) return NULL; /* out of memory */
    return Py_BuildValue("(nnO)", count, index, closed ? Py_True : Py_False);
}

static PyMethodDef jsonscan_methods[] = {
    {"scan", jsonscan_scan, METH_VARARGS,
     "scan(text, max_nodes, mode=0) -> tuple | str | None: a plain two-player JSON tree file's arrays, or why "
     "the scanner leaves the file to the json.loads path (mode 1, 2: with where); see the module source."},
    {"skip", jsonscan_skip, METH_VARARGS,
     "skip(text, index, check=True) -> int: the index just past the JSON value at index, or -1; see the module "
     "source."},
    {"skip_items", jsonscan_skip_items, METH_VARARGS,
     "skip_items(text, index, limit) -> (count, next, closed): skip elements of an array; see the module source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef jsonscan_module = {
    PyModuleDef_HEAD_INIT, "_jsonscan", "Optional compiled scanner of plain JSON tree files for gametree.", -1,
    jsonscan_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__jsonscan(void) { return PyModule_Create(&jsonscan_module); }
