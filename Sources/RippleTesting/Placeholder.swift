import RippleDiff
