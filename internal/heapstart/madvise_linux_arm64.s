#include "textflag.h"

// func madvise(addr, length, advice uintptr) (errno uintptr)
TEXT ·madvise(SB), NOSPLIT, $0-32
	MOVD	addr+0(FP), R0
	MOVD	length+8(FP), R1
	MOVD	advice+16(FP), R2
	MOVD	$233, R8 // SYS_madvise
	SVC
	CMN	$4095, R0
	BCC	ok
	NEG	R0, R0
	MOVD	R0, errno+24(FP)
	RET
ok:
	MOVD	ZR, errno+24(FP)
	RET
