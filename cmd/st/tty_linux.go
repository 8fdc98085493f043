package main

import "syscall"

// ioctlReadTermios is the ioctl that reads a terminal's settings; it
// fails on anything that is not a terminal.
const ioctlReadTermios = syscall.TCGETS
