/* rng — small, fast, seedable random numbers (xoshiro256** seeded by splitmix64). */
#ifndef CLT_RNG_H
#define CLT_RNG_H
#include <stdint.h>

typedef struct { uint64_t s[4]; } rng_state;

void rng_seed(rng_state *r, uint64_t seed);
uint64_t rng_next(rng_state *r);
/* One splitmix64 step of x: a well-mixed 64-bit hash of it (seeds from seeds). */
uint64_t rng_mix64(uint64_t x);
/* Uniform in [0, n). */
uint32_t rng_below(rng_state *r, uint32_t n);
/* Uniform float in [0, 1). */
float rng_unit(rng_state *r);
/* Standard normal (Box-Muller). */
float rng_normal(rng_state *r);

#endif
