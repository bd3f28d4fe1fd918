/*
 * A minimal reproduction, outside geom, of an emulator bug that made geom's
 * f32 answers differ on s390x under QEMU 7.2 (Debian bookworm's qemu-user).
 *
 * MDEBR (MULTIPLY, short BFP to long BFP) multiplies two 32-bit floats into
 * a 64-bit double. QEMU 7.2 reads its first operand as a 64-bit double (the
 * float's bits and whatever the register's low half holds), so 3.0f × 3.0f
 * comes out as 96, not 9; QEMU 8.0 and later, like the hardware, give 9.
 * LLVM emits MDEBR for `(a as f64) * (b as f64)` with `a`, `b` of type f32,
 * which geom's f32 kernels compute exactly in f64: under the buggy emulator
 * some f32 contact points came out wrong, two of them infinite.
 *
 * `cargo xtask cross` compiles and runs this under qemu-s390x before the
 * s390x checks, and refuses an emulator that gets it wrong:
 *
 *     s390x-linux-gnu-gcc -O2 -static -o qemu-mdebr scripts/qemu-mdebr.c
 *     qemu-s390x ./qemu-mdebr    # exit status 0: right; 1: the bug
 */
#include <stdio.h>

__attribute__((noinline)) static double mdebr(float a, float b) {
    double r;
    /* r = a (a short float in the register's high half, the low half
       zeroed), then r = r × b, as a double. */
    __asm__("lzdr %0\n\tler %0,%1\n\tmdebr %0,%2" : "=&f"(r) : "f"(a), "f"(b));
    return r;
}

int main(void) {
    double r = mdebr(3.0f, 3.0f);
    printf("mdebr: 3.0f * 3.0f = %.17g (%s)\n", r,
           r == 9.0 ? "right" : "WRONG: the first operand was read as a double");
    return r == 9.0 ? 0 : 1;
}
