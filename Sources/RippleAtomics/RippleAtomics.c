// The operations are inline functions in include/RippleAtomics.h; a C target needs one source file.
#include "RippleAtomics.h"
