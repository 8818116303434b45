/* kernels_scalar.c — the kernels of kernels_impl.h compiled for the scalar instruction set. */
#define HK_ISA_SCALAR
#define HK_ISA_NAME "scalar"
#include "kernels_impl.h"
