// Keeps allocating, and keeping, 1 MiB buffers until the process is out
// of memory.
test(() => {
  const keep = [];
  for (;;) keep.push(new ArrayBuffer(1 << 20));
}, "allocate until out of memory");
