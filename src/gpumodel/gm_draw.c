/* gm_draw — pictures of what one warp does to memory: lanes and sectors, banks, atomic groups, barrier intervals, before -> after. */
#define _GNU_SOURCE
#include "gpumodel/gm_draw.h"
#include "gpumodel/gm_text.h"
#include "base/util.h"
#include "text/i18n.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL 4          /* columns per lane or bank */
#define LEFT 8          /* columns of the row labels */
#define MAX_SECTOR_ROWS 16
#define MAX_STACK 8     /* rows of a bank's stack shown */
#define MAX_GROUPS 8    /* atomic address groups listed */

/* ---- figures of one request ---------------------------------------------- */

static int cmp_ull(const void *x, const void *y) {
    unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
    return a < b ? -1 : a > b;
}

static unsigned distinct_sorted(unsigned long long *v, unsigned n) {
    qsort(v, n, sizeof *v, cmp_ull);
    unsigned d = 0;
    for (unsigned i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1]) v[d++] = v[i];
    return d;
}

/* The lanes of the request's phase ph (wide local accesses are served a
 * part of the warp at a time), counted among the lanes taking part as the
 * plugin counts them; returns how many, their lane numbers in lanes[]. */
static unsigned phase_lanes(const gm_request *r, unsigned per_phase, unsigned ph, int *lanes) {
    unsigned n = 0, k = 0;
    for (int l = 0; l < GM_WARP; l++) {
        if (!r->size[l]) continue;
        if (k / per_phase == ph) lanes[n++] = l;
        k++;
    }
    return n;
}

static unsigned per_phase_of(const gm_request *r) {
    unsigned width = 4;
    for (int l = 0; l < GM_WARP; l++)
        if (r->size[l] > width) width = r->size[l];
    unsigned p = 128 / (width < 128 ? width : 128);
    return p ? p : 1;
}

/* Distinct 4-byte words per bank among lanes[]: the largest count. */
static unsigned phase_degree(const gm_request *r, const int *lanes, unsigned n) {
    unsigned long long words[GM_WARP * 64];
    unsigned nw = 0;
    for (unsigned i = 0; i < n; i++) {
        int l = lanes[i];
        for (unsigned long long w = r->addr[l] / 4; w <= (r->addr[l] + r->size[l] - 1) / 4 && nw < GM_WARP * 64; w++)
            words[nw++] = w;
    }
    nw = distinct_sorted(words, nw);
    unsigned per_bank[GM_BANKS] = {0}, worst = 1;
    for (unsigned i = 0; i < nw; i++)
        if (++per_bank[words[i] % GM_BANKS] > worst) worst = per_bank[words[i] % GM_BANKS];
    return worst;
}

void gm_request_measure(const gm_request *r, gm_space sp, gm_kind kd, gm_req_figures *f) {
    (void)kd;
    memset(f, 0, sizeof *f);
    unsigned long long a[GM_WARP], sec[GM_WARP * 9];
    unsigned ns = 0;
    for (int l = 0; l < GM_WARP; l++) {
        if (!r->size[l]) continue;
        a[f->lanes++] = r->addr[l];
        f->requested += r->size[l];
        for (unsigned long long x = r->addr[l] / GM_SECTOR; x <= (r->addr[l] + r->size[l] - 1) / GM_SECTOR && ns < GM_WARP * 9; x++)
            sec[ns++] = x;
    }
    if (!f->lanes) return;
    qsort(a, f->lanes, sizeof *a, cmp_ull);
    unsigned run = 0;
    for (unsigned i = 0; i < f->lanes; i++) {
        run = i > 0 && a[i] == a[i - 1] ? run + 1 : 1;
        if (run == 1) f->distinct++;
        if (run > f->contention) f->contention = run;
    }
    f->degree = 1;
    f->phases = 1;
    if (sp == GM_LOCAL) {
        unsigned per = per_phase_of(r);
        f->phases = (f->lanes + per - 1) / per;
        for (unsigned ph = 0; ph < f->phases; ph++) {
            int lanes[GM_WARP];
            unsigned n = phase_lanes(r, per, ph, lanes), d = phase_degree(r, lanes, n);
            if (d > f->degree) { f->degree = d; f->phase = ph; }
        }
    } else {
        f->sectors = distinct_sorted(sec, ns);
        unsigned long long moved = (unsigned long long)f->sectors * GM_SECTOR;
        f->useful = f->requested < moved ? f->requested : moved;
    }
}

unsigned long long gm_request_cost(const gm_req_figures *f, gm_space sp, gm_kind kd) {
    unsigned long long c = sp == GM_LOCAL ? f->degree
                         : sp == GM_CONSTANT ? ((unsigned long long)f->distinct << 16) | f->sectors : f->sectors;
    return kd == GM_ATOMIC ? ((unsigned long long)f->contention << 32) | c : c;
}

/* ---- drawing helpers ------------------------------------------------------ */

static const int palette[] = {ST_LINK, ST_KEYWORD, ST_TYPE, ST_STRING, ST_NUMBER, ST_BUILTIN};
static int colour(int group) { return group < 0 ? ST_DIM : palette[group % (int)CLT_ARRAY_LEN(palette)]; }

static const char *box(const gm_draw_opts *o, int which) {
    static const char *const u[] = {"│", "└", "┘", "┴", "─", "·", "█", "→"};
    static const char *const a[] = {"|", "+", "+", "+", "-", ".", "#", "->"};
    return o->utf8 ? u[which] : a[which];
}
enum { B_V, B_L, B_R, B_T, B_H, B_DOT, B_FULL, B_ARROW };

static int lanes_per_row(const gm_draw_opts *o) { return o->width >= LEFT + 16 * CELL ? 16 : 8; }

/* "0-15, 20, 22" for a set of lanes */
static void lane_list(const int *in, int n_lanes, char *buf, size_t len) {
    buf[0] = '\0';
    for (int i = 0; i < n_lanes;) {
        int j = i;
        while (j + 1 < n_lanes && in[j + 1] == in[j] + 1) j++;
        size_t u = strlen(buf);
        if (j > i) snprintf(buf + u, len - u, "%s%d-%d", u ? ", " : "", in[i], in[j]);
        else snprintf(buf + u, len - u, "%s%d", u ? ", " : "", in[i]);
        i = j + 1;
    }
}

/* The lanes in a row, joined below to the group each belongs to (a sector,
 * an address): grp[lane] is the group's number, -1 for an absent lane;
 * runs of neighbours in one group share a bracket and a label. */
static void draw_joined(st_doc *out, const int *grp, char tag, const gm_draw_opts *o) {
    int per = lanes_per_row(o);
    for (int r0 = 0; r0 < GM_WARP; r0 += per) {
        st_doc_add(out);
        st_doc_add(out);
        st_doc_add(out); /* three lines; pointers only once the array stops moving */
        st_line *ln = &out->lines[out->n - 3], *cn = &out->lines[out->n - 2], *lb = &out->lines[out->n - 1];
        st_line_pad(ln, ST_DIM, _("lane"), LEFT, 0);
        st_line_pad(cn, ST_NORMAL, "", LEFT, 0);
        st_line_pad(lb, ST_DIM, tag == 's' ? _("sector") : _("address"), LEFT, 0);
        int pos = LEFT; /* where the label line has got to */
        for (int l = r0; l < r0 + per; l++) {
            int g = grp[l];
            if (g < 0) {
                st_line_addf(ln, ST_DIM, "  %s ", box(o, B_DOT));
                st_line_adds(cn, ST_NORMAL, "    ");
                continue;
            }
            int prev = l > r0 && grp[l - 1] == g, next = l + 1 < r0 + per && grp[l + 1] == g;
            st_line_addf(ln, colour(g), " %2d ", l);
            char cell[32];
            snprintf(cell, sizeof cell, "%s%s%s%s", prev ? box(o, B_H) : " ", prev ? box(o, B_H) : " ",
                     box(o, !prev && !next ? B_V : !prev ? B_L : !next ? B_R : B_T), next ? box(o, B_H) : " ");
            st_line_adds(cn, colour(g), cell);
            if (next) continue;
            int first = l; /* the run ends here: its label, centred under it */
            while (first > r0 && grp[first - 1] == g) first--;
            char label[16];
            snprintf(label, sizeof label, "%c%d", tag, g);
            int centre = LEFT + ((first - r0) * CELL + 2 + (l - r0) * CELL + 2) / 2;
            int start = centre - (int)strlen(label) / 2;
            if (start < pos + (pos > LEFT)) continue; /* no room: the lane's colour still tells */
            st_line_addf(lb, ST_NORMAL, "%*s", start - pos, "");
            st_line_adds(lb, colour(g) | ST_A_BOLD, label);
            pos = start + (int)strlen(label);
        }
    }
}

static void say(st_doc *out, const gm_draw_opts *o, int style, const char *text) {
    st_doc_wrap(out, o->width, style, text, "", "  ", style);
}

static void sayf(st_doc *out, const gm_draw_opts *o, int style, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void sayf(st_doc *out, const gm_draw_opts *o, int style, const char *fmt, ...) {
    char buf[GM_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    say(out, o, style, buf);
}

/* ---- global and constant memory: lanes joined to sectors ------------------ */

/* The sectors' rows: each one's offset, its 32 bytes (used by the warp or
 * moved for nothing) and how many the warp uses. */
static void draw_sector_rows(st_doc *out, const gm_request *r, const unsigned long long *sec, unsigned ns,
                             const gm_draw_opts *o) {
    int wide = o->width >= 66; /* room for the offset and the count beside the 32 bytes */
    if (wide) {
        st_line *h = st_doc_add(out);
        st_line_pad(h, ST_DIM, _("sector"), 8, 0);
        st_line_pad(h, ST_DIM, _("offset"), 8, 0);
        st_line_addf(h, ST_DIM, _("32 bytes (%s used by the warp, %s moved for nothing)"), box(o, B_FULL), box(o, B_DOT));
    } else {
        sayf(out, o, ST_DIM, _("Each sector's 32 bytes: %s used by the warp, %s moved for nothing."), box(o, B_FULL),
             box(o, B_DOT));
    }
    unsigned shown = ns > MAX_SECTOR_ROWS ? MAX_SECTOR_ROWS - 4 : ns;
    unsigned long long rest_used = 0;
    for (unsigned s = 0; s < ns; s++) {
        unsigned used = 0;
        char bytes[32][4];
        for (int b = 0; b < GM_SECTOR; b++) {
            unsigned long long at = sec[s] * GM_SECTOR + (unsigned long long)b;
            int u = 0;
            for (int l = 0; l < GM_WARP && !u; l++) u = r->size[l] && at >= r->addr[l] && at < r->addr[l] + r->size[l];
            used += (unsigned)u;
            snprintf(bytes[b], sizeof bytes[b], "%s", box(o, u ? B_FULL : B_DOT));
        }
        if (s >= shown) { rest_used += used; continue; }
        st_line *l = st_doc_add(out);
        char name[16], off[24];
        snprintf(name, sizeof name, "s%u", s);
        snprintf(off, sizeof off, "+%llu", (sec[s] - sec[0]) * GM_SECTOR);
        st_line_pad(l, colour((int)s) | ST_A_BOLD, name, wide ? 8 : 5, 0);
        if (wide) st_line_pad(l, ST_DIM, off, 8, 0);
        for (int b = 0; b < GM_SECTOR; b++) st_line_adds(l, strcmp(bytes[b], box(o, B_DOT)) ? ST_OK : ST_ERR, bytes[b]);
        if (wide) st_line_addf(l, used == GM_SECTOR ? ST_OK : ST_WARN, _("  %2u of 32 used"), used);
        else st_line_addf(l, used == GM_SECTOR ? ST_OK : ST_WARN, " %2u", used);
    }
    if (ns > shown)
        sayf(out, o, ST_DIM, _("… %u more sectors, s%u to s%u: %llu of their %u bytes used."), ns - shown, shown, ns - 1,
             rest_used, (ns - shown) * GM_SECTOR);
}

static void draw_sectors(st_doc *out, const gm_access *a, const gm_request *r, const gm_req_figures *f,
                         const gm_draw_opts *o) {
    unsigned long long sec[GM_WARP * 9];
    unsigned ns = 0;
    for (int l = 0; l < GM_WARP; l++)
        for (unsigned long long x = r->addr[l] / GM_SECTOR; r->size[l] && x <= (r->addr[l] + r->size[l] - 1) / GM_SECTOR && ns < GM_WARP * 9; x++)
            sec[ns++] = x;
    ns = distinct_sorted(sec, ns);
    int grp[GM_WARP];
    for (int l = 0; l < GM_WARP; l++) {
        grp[l] = -1;
        for (unsigned s = 0; s < ns && r->size[l]; s++)
            if (sec[s] == r->addr[l] / GM_SECTOR) grp[l] = (int)s;
    }
    draw_joined(out, grp, 's', o);
    st_doc_add(out);
    draw_sector_rows(out, r, sec, ns, o);
    char pct[32], num[32], avg[32];
    gm_fmt_pct(pct, sizeof pct, f->sectors ? (double)f->useful / ((double)f->sectors * GM_SECTOR) : 0);
    sayf(out, o, ST_NORMAL,
         P_("This request: %u lanes ask for %llu bytes; %u sector moves %u bytes: %s efficient.",
            "This request: %u lanes ask for %llu bytes; %u sectors move %u bytes: %s efficient.", f->sectors),
         f->lanes, f->requested, f->sectors, f->sectors * GM_SECTOR, pct);
    if (f->sectors == 1 && f->lanes > 1)
        sayf(out, o, ST_OK, _("Broadcast: one sector serves all %u lanes."), f->lanes);
    if (a->space == GM_CONSTANT)
        sayf(out, o, f->distinct == 1 ? ST_OK : ST_WARN,
             P_("Distinct addresses: %u; the constant cache serves one address at a time, so one is a broadcast.",
                "Distinct addresses: %u; the constant cache serves one address at a time, so the warp waits for %u reads.",
                f->distinct),
             f->distinct, f->distinct);
    gm_fmt_num(num, sizeof num, a->sectors_per_request);
    gm_fmt_pct(pct, sizeof pct, a->efficiency);
    gm_fmt_num(avg, sizeof avg, a->distinct_avg);
    if (a->space == GM_CONSTANT)
        sayf(out, o, ST_DIM,
             P_("The table, over all %llu requests: %s sector per request, %s efficient, %s distinct addresses (%llu at worst).",
                "The table, over all %llu requests: %s sectors per request, %s efficient, %s distinct addresses (%llu at worst).",
                gm_count_of(num)),
             a->requests, num, pct, avg, a->distinct_max);
    else
        sayf(out, o, ST_DIM,
             P_("The table, over all %llu requests: %s sector per request, %s efficient.",
                "The table, over all %llu requests: %s sectors per request, %s efficient.", gm_count_of(num)),
             a->requests, num, pct);
}

/* ---- local memory: lanes stacked in the 32 banks ------------------------- */

typedef struct {
    unsigned long long word;
    int lane, n_lanes;     /* the first lane on the word and how many share it */
} bank_word;

/* The distinct words of the drawn lanes, bank by bank, lowest word first. */
static unsigned bank_words(const gm_request *r, const int *lanes, unsigned n, bank_word bw[GM_BANKS][GM_WARP * 4],
                           unsigned height[GM_BANKS]) {
    memset(height, 0, sizeof(unsigned) * GM_BANKS);
    unsigned tallest = 0;
    for (unsigned i = 0; i < n; i++) {
        int l = lanes[i];
        for (unsigned long long w = r->addr[l] / 4; w <= (r->addr[l] + r->size[l] - 1) / 4; w++) {
            unsigned b = (unsigned)(w % GM_BANKS), k = 0;
            while (k < height[b] && bw[b][k].word != w) k++;
            if (k < height[b]) { bw[b][k].n_lanes++; continue; }
            if (height[b] >= GM_WARP * 4) continue;
            unsigned at = height[b]++;
            while (at > 0 && bw[b][at - 1].word > w) { bw[b][at] = bw[b][at - 1]; at--; }
            bw[b][at] = (bank_word){w, l, 1};
            if (height[b] > tallest) tallest = height[b];
        }
    }
    return tallest;
}

/* One half of the banks (16 columns, or 8 on a narrow screen) with their stacks. */
static void draw_bank_half(st_doc *out, int b0, int per, const bank_word bw[GM_BANKS][GM_WARP * 4],
                           const unsigned *height, unsigned tallest, unsigned degree, unsigned n_lanes,
                           const gm_draw_opts *o) {
    st_line *h = st_doc_add(out);
    st_line_pad(h, ST_DIM, _("bank"), LEFT, 0);
    for (int b = b0; b < b0 + per; b++) st_line_addf(h, ST_DIM, "%4d", b);
    unsigned half = 0; /* this half's tallest */
    for (int b = b0; b < b0 + per; b++)
        if (height[b] > half) half = height[b];
    unsigned rows = half > MAX_STACK ? MAX_STACK : half;
    (void)tallest;
    for (unsigned k = 0; k < rows; k++) {
        st_line *l = st_doc_add(out);
        st_line_pad(l, ST_DIM, k == 0 ? _("lanes") : "", LEFT, 0);
        for (int b = b0; b < b0 + per; b++) {
            char cell[16] = "";
            const bank_word *w = &bw[b][k];
            int last_row = k + 1 == rows && half > rows;
            if (k >= height[b]) snprintf(cell, sizeof cell, "%s", "");
            else if (last_row) snprintf(cell, sizeof cell, "+%u", height[b] - k);
            else if (w->n_lanes > 1 && (unsigned)w->n_lanes == n_lanes) snprintf(cell, sizeof cell, "%s", _("all"));
            else snprintf(cell, sizeof cell, "%d%s", w->lane, w->n_lanes > 1 ? "+" : "");
            int style = k >= height[b] ? ST_NORMAL : height[b] > 1 ? colour((int)k) | ST_A_BOLD : colour(0);
            st_line_pad(l, style, cell, CELL, 1);
        }
    }
    st_line *p = st_doc_add(out);
    st_line_pad(p, ST_DIM, _("words"), LEFT, 0);
    for (int b = b0; b < b0 + per; b++) {
        char cell[16];
        snprintf(cell, sizeof cell, "%u", height[b]);
        int style = !height[b] ? ST_DIM : height[b] == degree && degree > 1 ? ST_ERR | ST_A_BOLD : ST_OK;
        st_line_pad(p, style, height[b] ? cell : box(o, B_DOT), CELL, 1);
    }
}

static void draw_banks(st_doc *out, const gm_access *a, const gm_request *r, const gm_req_figures *f,
                       const gm_draw_opts *o) {
    unsigned per_phase = per_phase_of(r);
    int lanes[GM_WARP];
    unsigned n = phase_lanes(r, per_phase, f->phase, lanes);
    bank_word (*bw)[GM_WARP * 4] = calloc(GM_BANKS, sizeof *bw);
    if (!bw) return;
    unsigned height[GM_BANKS];
    unsigned tallest = bank_words(r, lanes, n, bw, height);
    if (f->phases > 1 && n) {
        char which[160];
        lane_list(lanes, (int)n, which, sizeof which);
        sayf(out, o, ST_DIM, _("Accesses of %u bytes are served %u lanes at a time; drawn: phase %u of %u (lanes %s), the worst."),
             r->size[lanes[0]], per_phase, f->phase + 1, f->phases, which);
    }
    int per = lanes_per_row(o);
    for (int b0 = 0; b0 < GM_BANKS; b0 += per) draw_bank_half(out, b0, per, bw, height, tallest, f->degree, n, o);
    free(bw);
    st_doc_add(out);
    say(out, o, ST_DIM, _("Each column is a bank; a lane stands in the bank of each word it touches, one row per "
                          "distinct word. N+ : lane N and other lanes read the same word, served once (a broadcast)."));
    if (f->degree > 1)
        sayf(out, o, ST_ERR | ST_A_BOLD,
             _("Tallest stack: %u distinct words in one bank, served one after another: bank-conflict degree %u."),
             f->degree, f->degree);
    else
        say(out, o, ST_OK, _("No bank holds more than one distinct word: one pass, no bank conflict (degree 1)."));
    char avg[32];
    gm_fmt_num(avg, sizeof avg, a->bank_avg);
    sayf(out, o, ST_DIM, _("The table, over all %llu requests: degree %s on average, %llu at worst."), a->requests, avg,
         a->bank_max);
}

/* ---- atomics: lanes grouped by address ------------------------------------ */

static void draw_atomics(st_doc *out, const gm_access *a, const gm_request *r, const gm_req_figures *f,
                         const gm_draw_opts *o) {
    unsigned long long addrs[GM_WARP];
    unsigned na = 0;
    for (int l = 0; l < GM_WARP; l++)
        if (r->size[l]) addrs[na++] = r->addr[l];
    na = distinct_sorted(addrs, na);
    int grp[GM_WARP], count[GM_WARP] = {0}, order[GM_WARP];
    for (int l = 0; l < GM_WARP; l++) {
        grp[l] = -1;
        for (unsigned i = 0; i < na && r->size[l]; i++)
            if (addrs[i] == r->addr[l]) { grp[l] = (int)i; count[i]++; }
    }
    draw_joined(out, grp, 'a', o);
    st_doc_add(out);
    for (unsigned i = 0; i < na; i++) order[i] = (int)i;
    for (unsigned i = 1; i < na; i++) /* largest group first, then by address */
        for (unsigned j = i; j > 0 && count[order[j]] > count[order[j - 1]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    unsigned shown = na > MAX_GROUPS ? MAX_GROUPS - 1 : na;
    for (unsigned i = 0; i < shown; i++) {
        int g = order[i], lanes[GM_WARP], n = 0;
        for (int l = 0; l < GM_WARP; l++)
            if (grp[l] == g) lanes[n++] = l;
        char name[16], off[24], which[160];
        snprintf(name, sizeof name, "a%d", g);
        snprintf(off, sizeof off, "+%llu", addrs[g] - addrs[0]);
        lane_list(lanes, n, which, sizeof which);
        st_line *l = st_doc_add(out);
        st_line_pad(l, colour(g) | ST_A_BOLD, name, 5, 0);
        st_line_pad(l, ST_DIM, off, 7, 0);
        for (int k = 0; k < n && o->width >= 60; k++) st_line_adds(l, colour(g), box(o, B_FULL));
        st_line_addf(l, n == (int)f->contention && n > 1 ? ST_ERR | ST_A_BOLD : ST_NORMAL,
                     P_(" %d lane: %s", " %d lanes: %s", n), n, which);
    }
    if (na > shown)
        sayf(out, o, ST_DIM, P_("… %u more addresses, %d lane each at most.", "… %u more addresses, %d lanes each at most.",
                                (unsigned long)count[order[shown]]),
             na - shown, count[order[shown]]);
    if (f->contention > 1)
        sayf(out, o, ST_ERR | ST_A_BOLD, _("Largest group: %u lanes on one address take turns: contention %u."),
             f->contention, f->contention);
    else
        say(out, o, ST_OK, _("Every lane has its own address: no lane waits for another (contention 1)."));
    char avg[32];
    gm_fmt_num(avg, sizeof avg, a->contention_avg);
    sayf(out, o, ST_DIM, _("The table, over all %llu requests: contention %s on average, %llu at worst."), a->requests,
         avg, a->contention_max);
    if (a->space == GM_LOCAL) {
        gm_fmt_num(avg, sizeof avg, a->bank_avg);
        sayf(out, o, ST_DIM, _("Banks: this request's degree is %u; the table's %s on average, %llu at worst."),
             f->degree, avg, a->bank_max);
    }
}

/* ---- one request, one instruction ----------------------------------------- */

/* The title of a drawn request; also_worst: the first request, as costly as the worst. */
static const char *role_text(const gm_request *r, int also_worst, char *buf, size_t len) {
    if (r->role == GM_REQ_FIRST && also_worst)
        util_textf(buf, len, _("The first request (warp %u of work-group %llu), as costly as the worst:"), r->warp, r->group);
    else if (r->role == GM_REQ_WORST)
        util_textf(buf, len, _("The worst request (warp %u of work-group %llu):"), r->warp, r->group);
    else if (r->role == GM_REQ_FIRST)
        util_textf(buf, len, _("The first request (warp %u of work-group %llu):"), r->warp, r->group);
    else
        util_textf(buf, len, _("After %u barriers (warp %u of work-group %llu):"), r->epoch, r->warp, r->group);
    return buf;
}

static void draw_request(st_doc *out, const gm_access *a, const gm_request *r, const gm_draw_opts *o) {
    gm_req_figures f;
    gm_request_measure(r, a->space, a->kind, &f);
    if (a->kind == GM_ATOMIC) draw_atomics(out, a, r, &f, o);
    else if (a->space == GM_LOCAL) draw_banks(out, a, r, &f, o);
    else draw_sectors(out, a, r, &f, o);
}

static const gm_request *find_req(const gm_access *a, gm_req_role role) {
    for (int i = 0; i < a->n_reqs; i++)
        if (a->reqs[i].role == role) return &a->reqs[i];
    return NULL;
}

/* "1, 3, 5 … 63 (every 2nd)" : the words lanes touch, from the lowest the instruction touches */
static void elements_text(const gm_request *r, unsigned long long base, char *buf, size_t len) {
    long long idx[GM_WARP];
    int n = 0;
    for (int l = 0; l < GM_WARP; l++)
        if (r->size[l]) idx[n++] = (long long)((r->addr[l] - base) / (r->size[l] ? r->size[l] : 4));
    buf[0] = '\0';
    if (!n) return;
    long long step = n > 1 ? idx[1] - idx[0] : 0;
    int regular = n > 2;
    for (int i = 2; i < n && regular; i++) regular = idx[i] - idx[i - 1] == step;
    if (regular)
        util_textf(buf, len, _("%lld, %lld … %lld (step %lld)"), idx[0], idx[1], idx[n - 1], step);
    else
        for (int i = 0; i < n && strlen(buf) + 8 < len; i++) {
            size_t u = strlen(buf);
            if (i == 6 && n > 7) { snprintf(buf + u, len - u, " …"); break; }
            snprintf(buf + u, len - u, "%s%lld", i ? ", " : "", idx[i]);
        }
}

/* Barrier by barrier, for one work-group: which lanes take part, which
 * elements they touch, and the cost of each interval's request (the scan's
 * tree level by level, a tile loaded then read). */
static void draw_intervals(st_doc *out, const gm_access *a, const gm_draw_opts *o) {
    unsigned long long base = ULLONG_MAX;
    int n = 0;
    for (int i = 0; i < a->n_reqs; i++)
        if (a->reqs[i].role == GM_REQ_INTERVAL) {
            n++;
            for (int l = 0; l < GM_WARP; l++)
                if (a->reqs[i].size[l] && a->reqs[i].addr[l] < base) base = a->reqs[i].addr[l];
        }
    if (n < 2) return;
    st_doc_add(out);
    say(out, o, ST_TITLE | ST_A_BOLD, _("Barrier by barrier, in work-group 0 (each interval's first request):"));
    st_line *h = st_doc_add(out);
    st_line_pad(h, ST_DIM, _("barriers"), 9, 0);
    st_line_pad(h, ST_DIM, _("lanes"), 14, 0);
    int el_w = o->width - 9 - 14 - 11 > 40 ? 40 : o->width - 9 - 14 - 11;
    if (el_w < 8) el_w = 8;
    st_line_pad(h, ST_DIM, _("elements (from the lowest)"), el_w, 0);
    st_line_adds(h, ST_DIM, a->kind == GM_ATOMIC ? _("contention") : a->space == GM_LOCAL ? _("degree") : _("sectors"));
    for (int i = 0; i < a->n_reqs; i++) {
        const gm_request *r = &a->reqs[i];
        if (r->role != GM_REQ_INTERVAL) continue;
        gm_req_figures f;
        gm_request_measure(r, a->space, a->kind, &f);
        int lanes[GM_WARP], nl = 0;
        for (int l = 0; l < GM_WARP; l++)
            if (r->size[l]) lanes[nl++] = l;
        char num[16], which[160], cell[40], el[200], cost[16];
        snprintf(num, sizeof num, "%u", r->epoch);
        lane_list(lanes, nl, which, sizeof which);
        snprintf(cell, sizeof cell, "%.13s", which);
        elements_text(r, base, el, sizeof el);
        int fit_cols = 0;
        el[st_fit(el, strlen(el), el_w - 1, &fit_cols)] = '\0';
        unsigned c = a->kind == GM_ATOMIC ? f.contention : a->space == GM_LOCAL ? f.degree : f.sectors;
        snprintf(cost, sizeof cost, "%u", c);
        st_line *l = st_doc_add(out);
        st_line_pad(l, ST_NUMBER, num, 9, 0);
        st_line_pad(l, ST_NORMAL, cell, 14, 0);
        st_line_pad(l, ST_NORMAL, el, el_w, 0);
        int bad = a->space == GM_LOCAL ? c > 1 : 0;
        st_line_adds(l, bad ? ST_ERR | ST_A_BOLD : ST_OK, cost);
    }
}

/* The instruction's title; before: it is the compared kernel's. */
static void heading(st_doc *out, const gm_kernel *k, const gm_access *a, int before, const gm_draw_opts *o) {
    const char *what = gm_access_shown(a->space, a->kind, 0);
    if (before)
        sayf(out, o, ST_TITLE | ST_A_BOLD, _("Before: kernel %s, line %d, column %d: %s, %u bytes per work-item"),
             k->name, a->line, a->col, what, a->width_max);
    else
        sayf(out, o, ST_TITLE | ST_A_BOLD, _("Kernel %s, line %d, column %d: %s, %u bytes per work-item"), k->name,
             a->line, a->col, what, a->width_max);
}

/* The drawn request of an instruction: its worst, else its first. */
static const gm_request *main_req(const gm_access *a) {
    const gm_request *r = find_req(a, GM_REQ_WORST);
    return r ? r : find_req(a, GM_REQ_FIRST);
}

static void draw_one(st_doc *out, const gpumodel_report *rep, int ki, int ai, const gm_draw_opts *o);

/* The compared analysis's instruction of the same kind: the busiest of its
 * kernel of the same name (or its only kernel, when both have one). */
static const gm_access *before_access(const gpumodel_report *rep, const gm_kernel *k, const gm_access *a,
                                      const gm_kernel **pk) {
    const gm_kernel *old = NULL;
    for (int i = 0; i < rep->n_prev_kernels; i++)
        if (!strcmp(rep->prev_kernels[i].name, k->name)) old = &rep->prev_kernels[i];
    if (!old && rep->n_prev_kernels == 1 && rep->n_kernels == 1) old = &rep->prev_kernels[0];
    if (!old || !old->sum[a->space][a->kind].present) return NULL;
    *pk = old;
    return &old->acc[old->sum[a->space][a->kind].busiest];
}

/* One sentence: the table's figure before -> after. */
static void before_after_sentence(st_doc *out, const gm_access *b, const gm_access *a, const gm_draw_opts *o) {
    char x[32], y[32], p[32], q[32];
    if (a->kind == GM_ATOMIC) {
        gm_fmt_num(x, sizeof x, b->contention_avg);
        gm_fmt_num(y, sizeof y, a->contention_avg);
        sayf(out, o, ST_TITLE, _("Contention, before %s after: %s %s %s on average."), box(o, B_ARROW), x, box(o, B_ARROW), y);
    } else if (a->space == GM_LOCAL) {
        gm_fmt_num(x, sizeof x, b->bank_avg);
        gm_fmt_num(y, sizeof y, a->bank_avg);
        sayf(out, o, ST_TITLE, _("Bank-conflict degree, before %s after: %s %s %s on average."), box(o, B_ARROW), x,
             box(o, B_ARROW), y);
    } else {
        gm_fmt_num(x, sizeof x, b->sectors_per_request);
        gm_fmt_num(y, sizeof y, a->sectors_per_request);
        gm_fmt_pct(p, sizeof p, b->efficiency);
        gm_fmt_pct(q, sizeof q, a->efficiency);
        sayf(out, o, ST_TITLE, _("Sectors per request, before %s after: %s %s %s; efficiency %s %s %s."),
             box(o, B_ARROW), x, box(o, B_ARROW), y, p, box(o, B_ARROW), q);
    }
}

static void draw_titled(st_doc *out, const gm_access *a, const gm_request *r, const gm_draw_opts *o) {
    char t[256];
    say(out, o, ST_H2 | ST_A_BOLD, role_text(r, 0, t, sizeof t));
    draw_request(out, a, r, o);
}

/* Drops the spaces that end lines from first on (cells are padded on both sides). */
static void trim_lines(st_doc *out, int first) {
    for (int i = first; i < out->n; i++) {
        st_line *l = &out->lines[i];
        while (l->len > 0 && l->text[l->len - 1] == ' ') {
            l->text[--l->len] = '\0';
            while (l->n_spans > 0 && l->spans[l->n_spans - 1].off >= l->len) l->n_spans--;
            if (l->n_spans > 0 && l->spans[l->n_spans - 1].off + l->spans[l->n_spans - 1].len > l->len)
                l->spans[l->n_spans - 1].len = l->len - l->spans[l->n_spans - 1].off;
        }
    }
}

void gm_draw_access(st_doc *out, const gpumodel_report *rep, int ki, int ai, const gm_draw_opts *o) {
    int first_line = out->n;
    draw_one(out, rep, ki, ai, o);
    trim_lines(out, first_line);
}

static void draw_one(st_doc *out, const gpumodel_report *rep, int ki, int ai, const gm_draw_opts *o) {
    const gm_kernel *k = &rep->kernels[ki];
    const gm_access *a = &k->acc[ai];
    heading(out, k, a, 0, o);
    const gm_request *w = find_req(a, GM_REQ_WORST), *f = find_req(a, GM_REQ_FIRST);
    if (!w && !f) {
        say(out, o, ST_WARN, _("The simulator kept no request of this instruction to draw: rebuild cltutor's Oclgrind "
                               "plugin (make plugin)."));
        return;
    }
    if (w && f) {
        gm_req_figures fw, ff;
        gm_request_measure(w, a->space, a->kind, &fw);
        gm_request_measure(f, a->space, a->kind, &ff);
        if (gm_request_cost(&fw, a->space, a->kind) == gm_request_cost(&ff, a->space, a->kind)) w = NULL;
    }
    if (w) draw_titled(out, a, w, o);
    if (w && f) st_doc_add(out);
    if (f) {
        char t[256];
        say(out, o, ST_H2 | ST_A_BOLD, role_text(f, !w && find_req(a, GM_REQ_WORST), t, sizeof t));
        draw_request(out, a, f, o);
    }
    draw_intervals(out, a, o);
    const gm_kernel *pk = NULL;
    const gm_access *pa = before_access(rep, k, a, &pk);
    if (!pa || !main_req(pa)) return;
    st_doc_add(out);
    sayf(out, o, ST_H1 | ST_A_BOLD, _("Before %s after: compared with %s"), box(o, B_ARROW), rep->prev_label);
    heading(out, pk, pa, 1, o);
    draw_titled(out, pa, main_req(pa), o);
    draw_intervals(out, pa, o);
    st_doc_add(out);
    before_after_sentence(out, pa, a, o);
}

int gm_draw_busiest(const gpumodel_report *rep, int *kernel, int *acc) {
    double best = -1;
    *kernel = *acc = -1;
    for (int i = 0; i < rep->n_kernels; i++)
        for (int j = 0; j < rep->kernels[i].n_acc; j++) {
            double c = gpumodel_access_cost(&rep->kernels[i].acc[j]);
            if (c > best) { best = c; *kernel = i; *acc = j; }
        }
    return *kernel >= 0 ? 0 : -1;
}

int gm_draw_line(st_doc *out, const gpumodel_report *rep, int line, const gm_draw_opts *o) {
    int n = 0, ki, ai;
    if (line <= 0) {
        if (gm_draw_busiest(rep, &ki, &ai) != 0) {
            say(out, o, ST_WARN, _("The kernel made no global, constant or local memory access to draw."));
            return 0;
        }
        gm_draw_access(out, rep, ki, ai, o);
        return 1;
    }
    for (int i = 0; i < rep->n_kernels; i++)
        for (int j = 0; j < rep->kernels[i].n_acc; j++) {
            if (rep->kernels[i].acc[j].line != line) continue;
            if (n++) st_doc_add(out);
            gm_draw_access(out, rep, i, j, o);
        }
    if (n) return n;
    char lines[400] = "";
    int last = 0;
    for (int i = 0; i < rep->n_kernels; i++)
        for (int j = 0; j < rep->kernels[i].n_acc; j++) {
            int l = rep->kernels[i].acc[j].line;
            if (l == last || strlen(lines) + 12 > sizeof lines) continue;
            size_t u = strlen(lines);
            snprintf(lines + u, sizeof lines - u, "%s%d", u ? ", " : "", l);
            last = l;
        }
    sayf(out, o, ST_WARN, _("Line %d makes no memory access the model measured; the lines that make one: %s."), line,
         lines[0] ? lines : _("none"));
    return 0;
}
