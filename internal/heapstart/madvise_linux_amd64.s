#include "textflag.h"

// func madvise(addr, length, advice uintptr) (errno uintptr)
TEXT ·madvise(SB), NOSPLIT, $0-32
	MOVQ	addr+0(FP), DI
	MOVQ	length+8(FP), SI
	MOVQ	advice+16(FP), DX
	MOVQ	$28, AX // SYS_madvise
	SYSCALL
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	NEGQ	AX
	MOVQ	AX, errno+24(FP)
	RET
ok:
	MOVQ	$0, errno+24(FP)
	RET
