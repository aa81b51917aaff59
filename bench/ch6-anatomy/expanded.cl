/* An experiment on chapter 6's beyond kernel (kernels/06-constant/beyond.cl),
 * not a kernel of the course: the 64-feature loop computes the squared
 * distance expanded, |x|^2 + |y|^2 - 2 x.y, so that each feature of each
 * descriptor costs one FMA instead of a subtraction and an FMA. Each
 * centroid's |y|^2 is computed once per work-item and centroid, shared by
 * its TILE_DESC descriptors; with YY_LOCAL defined (run-gpu.sh makes that
 * form, expanded-local.cl), once per work-group into local memory. Rounding
 * differs from the reference's (x - y)^2 sums; the bench's random inputs
 * have no near ties. Timed by bench/ch6-anatomy/run-gpu.sh. */
/* Beyond GPU5: a register tile. Each work-item keeps TILE_DESC descriptors
 * in registers and walks a slice of the centroids (read from __constant
 * memory, broadcast to the whole warp), so that every centroid word it loads
 * feeds TILE_DESC differences and FMAs instead of one. The LOCAL_SIZE work-items of a group still
 * cover LOCAL_SIZE descriptors (the host launches one work-item per
 * descriptor): they split into TILE_DESC teams, team s taking the s-th slice
 * of the centroids for all LOCAL_SIZE descriptors, TILE_DESC per work-item.
 * The teams' nearest centroids meet in local memory; the first team keeps
 * the nearest of all (the lower slice on a tie: the same answer as walking
 * the centroids in order).
 * Measured on an H100 at 262144 x 256 x 64: 838 us with one descriptor per
 * work-item, 581 us with two, 498 us with two and the inner loop free of
 * tests (below). Slower variants tried: the centroids staged in
 * local memory (746 us), two or four centroids per step of the loop (811,
 * 658 us: more registers, fewer warps). Four descriptors per work-item would
 * need 256 registers for them alone. */
#define REG_FEATURES 64                 /* features kept in registers */
#define REG_QUADS (REG_FEATURES / 4)
#ifndef TILE_DESC
#define TILE_DESC 2                     /* descriptors per work-item: LOCAL_SIZE must be a multiple */
#endif
#define TEAM (LOCAL_SIZE / TILE_DESC)   /* work-items per slice of the centroids */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float best_dist[TILE_DESC][LOCAL_SIZE];
    __local int best_centroid[TILE_DESC][LOCAL_SIZE];
#ifdef YY_LOCAL
    __local float yy_of[YY_LOCAL];   /* each centroid's |y|^2 */
#endif
    const int lid = get_local_id(0);
    const int slice = lid / TEAM, lane = lid % TEAM;
    const int first = get_group_id(0) * LOCAL_SIZE + lane;   /* descriptors first + TEAM * i */
    const int quads = min(n_features, REG_FEATURES) / 4;

    /* the descriptors, from the transposed layout: coalesced reads */
    float4 x[TILE_DESC][REG_QUADS];
#pragma unroll
    for (int i = 0; i < TILE_DESC; i++) {
        const int d = min(first + TEAM * i, n_descriptors - 1);
#pragma unroll
        for (int q = 0; q < REG_QUADS; q++) {
            if (q < quads)
                x[i][q] = (float4)(descriptors[(4 * q + 0) * n_descriptors + d],
                                   descriptors[(4 * q + 1) * n_descriptors + d],
                                   descriptors[(4 * q + 2) * n_descriptors + d],
                                   descriptors[(4 * q + 3) * n_descriptors + d]);
            else
                x[i][q] = (float4)(0.0f);
        }
    }

    /* this team's slice of the centroids */
    const int per_slice = (n_centroids + TILE_DESC - 1) / TILE_DESC;
    const int c0 = slice * per_slice, c1 = min(n_centroids, c0 + per_slice);
    int nearest[TILE_DESC];
    float best[TILE_DESC];
#pragma unroll
    for (int i = 0; i < TILE_DESC; i++) {
        nearest[i] = c0;
        best[i] = FLT_MAX;
    }
    /* 64 features, the bench's case: a loop with no test per quad, and
     * centroid offsets the compiler knows (498 us against 581 us for the
     * general loop below on an H100) */
    if (n_features == REG_FEATURES) {
        float xx[TILE_DESC];
#pragma unroll
        for (int i = 0; i < TILE_DESC; i++) {
            float4 s = (float4)(0.0f);
#pragma unroll
            for (int q = 0; q < REG_QUADS; q++)
                s = fma(x[i][q], x[i][q], s);
            xx[i] = (s.x + s.y) + (s.z + s.w);
        }
#ifdef YY_LOCAL
        for (int c = lid; c < n_centroids && c < YY_LOCAL; c += LOCAL_SIZE) {
            float4 s = (float4)(0.0f);
            for (int q = 0; q < REG_QUADS; q++) {
                const float4 y = vload4(q, centroids + c * REG_FEATURES);
                s = fma(y, y, s);
            }
            yy_of[c] = (s.x + s.y) + (s.z + s.w);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        for (int c = c0; c < c1; c++) {
            __constant float *centroid = centroids + c * REG_FEATURES;
            float4 dot[TILE_DESC];
#pragma unroll
            for (int i = 0; i < TILE_DESC; i++)
                dot[i] = (float4)(0.0f);
#ifndef YY_LOCAL
            float4 yy4 = (float4)(0.0f);
#endif
#pragma unroll
            for (int q = 0; q < REG_QUADS; q++) {
                const float4 y = vload4(q, centroid);
#ifndef YY_LOCAL
                yy4 = fma(y, y, yy4);
#endif
#pragma unroll
                for (int i = 0; i < TILE_DESC; i++)
                    dot[i] = fma(x[i][q], y, dot[i]);
            }
#ifdef YY_LOCAL
            const float yy = yy_of[c];
#else
            const float yy = (yy4.x + yy4.y) + (yy4.z + yy4.w);
#endif
#pragma unroll
            for (int i = 0; i < TILE_DESC; i++) {
                const float dist = xx[i] + yy - 2.0f * ((dot[i].x + dot[i].y) + (dot[i].z + dot[i].w));
                if (dist < best[i]) {
                    best[i] = dist;
                    nearest[i] = c;
                }
            }
        }
    }
    /* any other length: quads past the features are skipped, features past
     * REG_FEATURES come from global memory */
    else {
        for (int c = c0; c < c1; c++) {
            __constant float *centroid = centroids + c * n_features;
            float4 acc[TILE_DESC];
#pragma unroll
            for (int i = 0; i < TILE_DESC; i++)
                acc[i] = (float4)(0.0f);
#pragma unroll
            for (int q = 0; q < REG_QUADS; q++) {
                if (q < quads) {
                    const float4 y = vload4(q, centroid);
#pragma unroll
                    for (int i = 0; i < TILE_DESC; i++) {
                        const float4 t = x[i][q] - y;
                        acc[i] = fma(t, t, acc[i]);
                    }
                }
            }
            /* descriptors longer than REG_FEATURES: the rest from global memory */
            for (int k = REG_FEATURES; k < n_features; k += 4) {
                const float4 y = vload4(k / 4, centroid);
#pragma unroll
                for (int i = 0; i < TILE_DESC; i++) {
                    const int d = min(first + TEAM * i, n_descriptors - 1);
                    const float4 z = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                              descriptors[(k + 1) * n_descriptors + d],
                                              descriptors[(k + 2) * n_descriptors + d],
                                              descriptors[(k + 3) * n_descriptors + d]);
                    const float4 t = z - y;
                    acc[i] = fma(t, t, acc[i]);
                }
            }
#pragma unroll
            for (int i = 0; i < TILE_DESC; i++) {
                const float dist = (acc[i].x + acc[i].y) + (acc[i].z + acc[i].w);
                if (dist < best[i]) {
                    best[i] = dist;
                    nearest[i] = c;
                }
            }
        }
    }

    /* the teams meet: descriptor lane + TEAM * i of the group, slice s */
#pragma unroll
    for (int i = 0; i < TILE_DESC; i++) {
        best_dist[slice][lane + TEAM * i] = best[i];
        best_centroid[slice][lane + TEAM * i] = nearest[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* work-item lid settles descriptor lid of the group */
    const int d = get_group_id(0) * LOCAL_SIZE + lid;
    if (d < n_descriptors) {
        float b = best_dist[0][lid];
        int c = best_centroid[0][lid];
        for (int s = 1; s < TILE_DESC; s++)
            if (best_dist[s][lid] < b) {
                b = best_dist[s][lid];
                c = best_centroid[s][lid];
            }
        atomic_inc(&histogram[c]);
    }
}
