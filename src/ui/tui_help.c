/* tui_help — the UI's help screen (the key map's rows, tui_keys.c) and its
 * OpenCL C quick reference, as styled lines in the current language. */
#include "ui/tui_help.h"
#include "text/mdrender.h"
#include "text/i18n.h"

#include <stdio.h>
#include <string.h>

void tui_help_doc(st_doc *out, int width) {
    static const char *const sections[] = {N_("Everywhere"), N_("Chapter list"), N_("Chapter"), N_("Dialogs")};
    int kw = 20;
    for (int s = 0; s < 4; s++) {
        if (s) st_doc_add(out);
        st_doc_addf(out, ST_TITLE | ST_A_BOLD, "%s", _(sections[s]));
        for (const tui_key_help *k = tui_help_rows(); k->what; k++) {
            if (k->section != s) continue;
            char keys[96];
            tui_help_row_keys(k, keys, sizeof keys);
            st_para p;
            st_para_init(&p);
            const char *what = _(k->what);
            st_para_add(&p, ST_NORMAL, what, strlen(what));
            char first[160];
            int pad = kw - st_widths(keys);
            snprintf(first, sizeof first, "  %s%*s", keys, pad > 0 && pad < 40 ? pad : 1, "");
            int start = out->n;
            st_para_wrap(&p, width, first, "                      ", ST_KEY | ST_A_BOLD, out);
            (void)start;
            st_para_free(&p);
        }
    }
    st_doc_add(out);
    st_doc_wrap(out, width, ST_DIM,
                _("Saving the kernel from any editor reruns it while watch is on. Your progress is saved in the workspace after every run."),
                "", "", ST_DIM);
}

static const char quickref_en[] =
    "## Address spaces\n\n"
    "| qualifier | where | who sees it |\n|---|---|---|\n"
    "| `__global` | device memory | every work-item; large, slow |\n"
    "| `__constant` | read-only device memory, cached | every work-item; small (often 64 KiB) |\n"
    "| `__local` | on-chip, per work-group | the work-items of one group; fast |\n"
    "| `__private` | registers (the default) | one work-item |\n\n"
    "## Work-items\n\n"
    "```c\n"
    "size_t gid = get_global_id(0);    // this work-item's number\n"
    "size_t lid = get_local_id(0);     // its number within the group\n"
    "size_t grp = get_group_id(0);     // the group's number\n"
    "size_t gsz = get_global_size(0);  // all work-items (rounded up!)\n"
    "size_t lsz = get_local_size(0);   // work-items per group\n"
    "if (gid >= n) return;             // guard the rounded-up tail\n"
    "```\n\n"
    "## Vector types\n\n"
    "`float2 float4 float8 float16`, likewise `int4`, `uint4`, `uchar4`, ...\n\n"
    "```c\n"
    "float4 v = vload4(i, p);          // p[4i .. 4i+3]\n"
    "float4 w = (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "float s = v.x + v.y + v.z + v.w;  // also v.s0 .. v.s3, v.xy, v.hi, v.lo\n"
    "float d = dot(v, w);              // 4 products, summed\n"
    "vstore4(v, i, p);\n"
    "```\n\n"
    "## Barriers\n\n"
    "```c\n"
    "barrier(CLK_LOCAL_MEM_FENCE);     // wait for the whole group; local writes visible\n"
    "barrier(CLK_GLOBAL_MEM_FENCE);    // global writes of the group visible\n"
    "```\n\n"
    "Every work-item of the group must reach the same barrier: never put one inside a branch "
    "that only some work-items take.\n\n"
    "## Atomics (32-bit int and uint)\n\n"
    "```c\n"
    "atomic_inc(&hist[bin]);           // +1, returns the old value\n"
    "atomic_add(&sum, x);              // also atomic_sub, atomic_xchg\n"
    "atomic_min(&m, x);  atomic_max(&m, x);\n"
    "atomic_cmpxchg(&p, expected, desired);\n"
    "atomic_add(&local_hist[bin], 1);  // works on __local too: far less contention\n"
    "```\n\n"
    "## Local memory\n\n"
    "```c\n"
    "__local uint tile[LOCAL_SIZE];    // one copy per work-group\n"
    "tile[lid] = in[gid];\n"
    "barrier(CLK_LOCAL_MEM_FENCE);\n"
    "```\n\n"
    "32 banks of 4 bytes: work-items that touch the same bank at different addresses "
    "wait for each other. Pad rows (`[n][33]` rather than `[n][32]`) to spread them.\n\n"
    "## Coalescing\n\n"
    "Neighbouring work-items should read neighbouring addresses: for 32 work-items, "
    "`a[gid]` (4-byte values) touches four 32-byte segments, `a[gid * stride]` up to 32.\n";

static const char quickref_zh[] =
    "## 地址空间\n\n"
    "| 限定符 | 位置 | 可见范围 |\n|---|---|---|\n"
    "| `__global` | 设备内存 | 所有工作项；容量大、速度慢 |\n"
    "| `__constant` | 只读设备内存，有缓存 | 所有工作项；容量小（常为 64 KiB） |\n"
    "| `__local` | 片上内存，每个工作组一份 | 同一工作组的工作项；速度快 |\n"
    "| `__private` | 寄存器（默认） | 单个工作项 |\n\n"
    "## 工作项\n\n"
    "```c\n"
    "size_t gid = get_global_id(0);    // 本工作项的全局编号\n"
    "size_t lid = get_local_id(0);     // 在工作组内的编号\n"
    "size_t grp = get_group_id(0);     // 工作组编号\n"
    "size_t gsz = get_global_size(0);  // 工作项总数（已向上取整！）\n"
    "size_t lsz = get_local_size(0);   // 每组工作项数\n"
    "if (gid >= n) return;             // 跳过取整多出的工作项\n"
    "```\n\n"
    "## 向量类型\n\n"
    "`float2 float4 float8 float16`，以及 `int4`、`uint4`、`uchar4` 等\n\n"
    "```c\n"
    "float4 v = vload4(i, p);          // p[4i .. 4i+3]\n"
    "float4 w = (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "float s = v.x + v.y + v.z + v.w;  // 也可写 v.s0 .. v.s3、v.xy、v.hi、v.lo\n"
    "float d = dot(v, w);              // 4 个乘积之和\n"
    "vstore4(v, i, p);\n"
    "```\n\n"
    "## 屏障\n\n"
    "```c\n"
    "barrier(CLK_LOCAL_MEM_FENCE);     // 等待整个工作组；局部内存写入可见\n"
    "barrier(CLK_GLOBAL_MEM_FENCE);    // 工作组的全局内存写入可见\n"
    "```\n\n"
    "工作组内每个工作项都必须到达同一个屏障：不要把屏障放在只有部分工作项进入的分支里。\n\n"
    "## 原子操作（32 位 int 和 uint）\n\n"
    "```c\n"
    "atomic_inc(&hist[bin]);           // 加 1，返回旧值\n"
    "atomic_add(&sum, x);              // 还有 atomic_sub、atomic_xchg\n"
    "atomic_min(&m, x);  atomic_max(&m, x);\n"
    "atomic_cmpxchg(&p, expected, desired);\n"
    "atomic_add(&local_hist[bin], 1);  // 也可用于 __local：竞争少得多\n"
    "```\n\n"
    "## 局部内存\n\n"
    "```c\n"
    "__local uint tile[LOCAL_SIZE];    // 每个工作组一份\n"
    "tile[lid] = in[gid];\n"
    "barrier(CLK_LOCAL_MEM_FENCE);\n"
    "```\n\n"
    "32 个 4 字节的存储体（bank）：访问同一存储体不同地址的工作项会相互等待。"
    "给行加填充（用 `[n][33]` 而不是 `[n][32]`）可以把访问分散开。\n\n"
    "## 合并访问\n\n"
    "相邻工作项应读取相邻地址：对 32 个工作项，`a[gid]`（4 字节的值）只涉及 4 个 32 字节段，"
    "`a[gid * stride]` 最多涉及 32 个。\n";

void tui_quickref_doc(st_doc *out, int width) {
    const char *md = !strcmp(i18n_lang(), "zh") ? quickref_zh : quickref_en;
    mdr_render(md, strlen(md), width, out);
}
