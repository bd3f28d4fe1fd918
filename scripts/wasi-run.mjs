// Runs a wasm32-wasip1 program (a test binary of `cargo xtask cross
// wasm32-wasip1`) under Node.js's WASI, as qemu-user runs the other
// targets' binaries.
//
// Usage: node scripts/wasi-run.mjs PROGRAM.wasm DIR [ARG…]
//
// DIR is the one directory the program may read, at its own path (the
// tests open their pinned files by absolute path); the environment is
// empty. The exit status is the program's; a trap (a panic, which aborts
// on wasm) ends Node with a stack trace and status 1.
//
// Debian's wasi-libc (2024) has no pthread functions, which Rust's standard
// library for wasm32-wasip1 links against (its own bundled wasi-libc has
// stubs). The linker leaves the ones in scripts/wasi-threads.undefined as
// imports, and this gives them what those stubs do: creating a thread
// fails (EAGAIN, so `std::thread::Builder::spawn` returns an error), and
// joining or detaching one, which cannot then happen, traps.

import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const [program, dir, ...args] = process.argv.slice(2);
if (!program || !dir) {
    console.error('usage: node scripts/wasi-run.mjs PROGRAM.wasm DIR [ARG…]');
    process.exit(2);
}

// WASI's errno values (wasi_snapshot_preview1), as wasi-libc returns them.
const EAGAIN = 6;
const threads = {
    pthread_attr_init: () => 0,
    pthread_attr_setstacksize: () => 0,
    pthread_attr_destroy: () => 0,
    pthread_create: () => EAGAIN,
};

const module = await WebAssembly.compile(readFileSync(program));
const wasi = new WASI({ version: 'preview1', args: [program, ...args], env: {}, preopens: { [dir]: dir }, returnOnExit: true });
const imports = { wasi_snapshot_preview1: wasi.wasiImport, env: {} };
for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    if (from === 'env') {
        imports.env[name] = threads[name] ?? (() => {
            throw new Error(`${program} called ${name}, which wasm32-wasip1 does not have`);
        });
    }
}
const instance = await WebAssembly.instantiate(module, imports);
process.exitCode = wasi.start(instance);
