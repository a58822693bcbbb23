// An emulated Gin-Go sensor board: MicroPython on an RP2040 (rp2040js), four CD74HC4067
// muxes feeding ADC0, the USB CDC port bridged to a pty the tests open with pyserial.
//
//   node pico.mjs FIRMWARE BOOTROM FS_IMAGE PTY_FD
//
// PTY_FD is the pty master (non-blocking); the emulated Pico's USB serial port is its
// slave side. Control: one JSON command per line on stdin, one JSON answer per line on
// stdout (tests/pico/board.py wraps this). Times are emulated microseconds since start.
import { readFileSync, readSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC } from 'rp2040js';

const [firmwarePath, bootromPath, fsPath, ptyFd] = process.argv.slice(2);
const PTY = Number(ptyFd);
const FS_OFFSET = 0xa0000;
const CYCLE_NS = 8; // 125 MHz
const SLICE_NS = 200_000; // emulated time between host I/O checks
const EP_IN_BUF_CTRL = (ep) => 0x80 + 8 * ep;
const BUF_AVAILABLE = 1 << 10;

// The board: mux select S0..S3, enables (active low) per firmware/config.py defaults.
const SELECT = [2, 3, 4, 5];
const ENABLE = [6, 7, 8, 9];
const SAFE_MODE = 22; // config.SAFE_MODE_PIN: a jumper to GND skips the scan loop
const FLOATING = 0x04d;
// PICO_CHIP_ID (hex): the SYSINFO CHIP_ID the chip reports (default: rp2040js's own, an RP2040 B1)
const CHIP_ID = process.env.PICO_CHIP_ID ? Number.parseInt(process.env.PICO_CHIP_ID, 16) >>> 0 : null; // what ADC0 reads when no mux (or two) drive it: obviously wrong
const levels = new Uint16Array(64).fill(2048); // 12-bit level per mux * 16 + channel

const firmware = readFileSync(firmwarePath);
const filesystem = readFileSync(fsPath);
const bootrom = new Uint32Array(new Uint8Array(readFileSync(bootromPath)).buffer);

let baseNs = 0; // emulated time before the last reset
let clock, mcu, cdc;
let resetReason = null;
const stats = { resets: 0, watchdog: 0 };
let toHost = []; // device -> host bytes not yet written to the pty
let fromHost = new Uint8Array(0); // host -> device bytes not yet given to the device
let pendingOut = null; // size of the armed OUT transfer waiting for host data
let hold = false; // the host stops taking IN data (NAKs)
let heldIn = [];
let tap; // frames seen on the wire, device -> host
let pio; // per PIO block: emulated time its state machines have run to
let edges = []; // [pin, level, ns] of watched pins
let watched = new Set();
let pioNowNs = 0;

const now = () => baseNs + clock.nanos;
const readBuf = Buffer.alloc(4096);
let stallUntil = 0; // until this clock.nanos the CPU hangs (the watchdog keeps counting)
let inject = []; // [ns since the last reset, bytes] the host sends at those instants

function newTap() {
  return { cur: 0, type: -1, frames: {}, readings: 0, first: null, last: null, maxGap: 0, bytes: 0, gaps: [] };
}

function tapBytes(buf) {
  const t = now();
  tap.bytes += buf.length;
  for (const b of buf) {
    if (b !== 0) {
      if (tap.cur === 1) tap.type = b;
      tap.cur++;
      continue;
    }
    if (tap.cur > 2) {
      tap.frames[tap.type] = (tap.frames[tap.type] || 0) + 1;
      if (tap.type === 0x02) {
        if (tap.last !== null) {
          tap.maxGap = Math.max(tap.maxGap, t - tap.last);
          if (tap.gaps.length < 20000) tap.gaps.push(Math.round((t - tap.last) / 1000));
        }
        if (tap.first === null) tap.first = t;
        tap.last = t;
        tap.readings++;
      }
    }
    tap.cur = 0;
    tap.type = -1;
  }
}

function adcValue() {
  const out = (p) => mcu.gpio[p].outputEnable && mcu.gpio[p].outputValue;
  let channel = 0;
  SELECT.forEach((p, bit) => (channel |= (out(p) ? 1 : 0) << bit));
  const on = ENABLE.map((p, mux) => (mcu.gpio[p].outputEnable && !mcu.gpio[p].outputValue ? mux : -1)).filter((m) => m >= 0);
  return on.length === 1 ? levels[on[0] * 16 + channel] : FLOATING;
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function deliverOut() {
  if (pendingOut === null || fromHost.length === 0) return;
  const n = Math.min(pendingOut, fromHost.length);
  pendingOut = null;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, fromHost.slice(0, n));
  fromHost = fromHost.slice(n);
}

function boot() {
  const old = mcu;
  mcu = new RP2040();
  clock = mcu.clock;
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  mcu.loadBootrom(bootrom);
  if (old) {
    mcu.flash.set(old.flash); // the flash (and its filesystem) survives a reset
  } else {
    mcu.flash.set(firmware);
    mcu.flash.set(filesystem, FS_OFFSET);
  }
  mcu.core.PC = 0x10000000;
  mcu.gpio[SAFE_MODE].setInputValue(true); // no safe-mode jumper (rp2040js has no pull-ups)
  if (CHIP_ID !== null) {
    // another chip's SYSINFO CHIP_ID (e.g. an RP2350's part 0x0004): what the firmware checks at start
    const sysinfo = mcu.peripherals[0x40000];
    const read = sysinfo.readUint32.bind(sysinfo);
    sysinfo.readUint32 = (offset) => (offset === 0 ? CHIP_ID : read(offset));
  }
  const watchdog = mcu.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    // the chip resets: stop this watchdog (its periodic alarm would fire again at once)
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
    resetReason = 'watchdog';
  };
  const adc = mcu.adc;
  adc.onADCRead = (channel) => {
    adc.channelValues[channel] = channel === 0 ? adcValue() : 0; // sampled as the conversion starts
    adc.currentChannel = channel;
    adc.sampleAlarm.schedule(adc.sampleTime * 1000);
  };
  // The PIO blocks run in step with emulated time (see runPio), not on their own timers.
  pio = mcu.pio.map((block) => {
    block.run = () => {};
    return { block, ns: 0 };
  });
  for (const pin of watched) watchPin(pin);
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (buf) => {
    tapBytes(buf);
    toHost.push(buf);
  };
  // A real host NAKs an OUT transfer until it has data; rp2040js's helper would complete
  // it at once with 0 bytes (an interrupt storm), so keep it pending instead.
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep !== cdc.outEndpoint) return;
    pendingOut = size;
    deliverOut();
  };
  // A host that stops reading NAKs IN transfers: hold them until it reads again.
  const dpram = mcu.usbCtrl.DPRAMUpdated.bind(mcu.usbCtrl);
  mcu.usbCtrl.DPRAMUpdated = (offset, value) => {
    if (cdc.inEndpoint > 0 && offset === EP_IN_BUF_CTRL(cdc.inEndpoint) && value & BUF_AVAILABLE && (hold || heldIn.length)) {
      heldIn.push([offset, value]);
      return;
    }
    dpram(offset, value);
  };
  mcu.usbCtrl.releaseHeld = () => {
    const list = heldIn;
    heldIn = [];
    for (const [offset, value] of list) dpram(offset, value);
  };
  pendingOut = null;
  heldIn = [];
  fromHost = new Uint8Array(0);
}

// Flash writes (mpremote cp, littlefs's writes): MicroPython erases and programs its
// flash through the boot ROM's flash_range_erase and flash_range_program. rp2040js
// models no flash chip behind the SSI, so those calls are done here, on mcu.flash (what
// XIP reads): when the core reaches either function's entry, the erase (whole 4 KiB
// sectors to 0xff) or the program (bits only cleared, as NOR flash does) happens and
// the function returns to its caller. The entries come from the ROM's own function
// table (codes 'RE' and 'RP', table pointer at 0x14).
function romFunction(code) {
  const rom = new Uint8Array(bootrom.buffer);
  const word = (at) => rom[at] | (rom[at + 1] << 8);
  for (let at = word(0x14); word(at) !== 0; at += 4) {
    if (word(at) === code.charCodeAt(0) + (code.charCodeAt(1) << 8)) return word(at + 2) & ~1;
  }
  throw new Error(`no ${code} in the boot ROM's function table`);
}
const ROM_ERASE = romFunction('RE');
const ROM_PROGRAM = romFunction('RP');
const FLASH_SECTOR = 4096;

function romFlash(pc) {
  const r = mcu.core.registers;
  const flash = mcu.flash;
  if (pc === ROM_ERASE) {
    // flash_range_erase(addr, count, block_size, block_cmd)
    const start = r[0] & ~(FLASH_SECTOR - 1);
    const end = Math.min(flash.length, Math.ceil((r[0] + r[1]) / FLASH_SECTOR) * FLASH_SECTOR);
    if (start < end) flash.fill(0xff, start, end);
  } else {
    // flash_range_program(addr, data, count)
    for (let i = 0; i < r[2] && r[0] + i < flash.length; i++) flash[r[0] + i] &= mcu.readUint8(r[1] + i);
  }
  mcu.core.PC = r[14] & ~1; // return to the caller
}

function doReset(reason) {
  if (reason === 'watchdog') stats.watchdog++;
  stats.resets++;
  resetReason = null;
  baseNs += clock.nanos;
  stallUntil = 0;
  boot();
}

function watchPin(pin) {
  mcu.gpio[pin].addListener((state) => edges.push([pin, state === 1 ? 1 : 0, pioNowNs]));
}

// Step each running state machine for the emulated time that has passed. rp2040js
// executes one instruction per step and counts its delay cycles in sm.cycles; a stalled
// step counts as one cycle. One PIO cycle lasts clkdiv system clocks.
function runPio(untilNs) {
  for (const p of pio) {
    const { block } = p;
    if (block.stopped) {
      p.ns = untilNs;
      continue;
    }
    const sms = block.machines.filter((sm) => sm.enabled);
    if (sms.length === 0) {
      p.ns = untilNs;
      continue;
    }
    const sm = sms[0];
    const period = (sm.clockDivInt + sm.clockDivFrac / 256) * CYCLE_NS;
    while (p.ns < untilNs) {
      if (sm.waiting && sm.txFIFO.empty && !mcu.dma.channels.some((c) => c.active)) {
        // stalled on an empty TX FIFO that no DMA will fill: nothing changes until the
        // CPU acts (between calls), so skip the idle cycles instead of stepping each one
        // (a strip that is set up but idle cost about 40x in emulation speed)
        p.ns = untilNs;
        break;
      }
      pioNowNs = baseNs + p.ns;
      const before = sm.cycles;
      block.step();
      clock.tick(0); // DMA transfers the step asked for (DREQ) happen now, not a slice later
      p.ns += Math.max(1, sm.cycles - before) * period;
    }
  }
}

function pumpHost() {
  // host -> device
  const buf = readBuf;
  for (;;) {
    let n = 0;
    try {
      n = readSync(PTY, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code !== 'EAGAIN' && e.code !== 'EIO') throw e;
    }
    if (n <= 0) break;
    fromHost = concat(fromHost, buf.subarray(0, n));
  }
  deliverOut();
  // device -> host, as much as the pty takes
  while (toHost.length) {
    const chunk = toHost[0];
    let n = 0;
    try {
      n = writeSync(PTY, chunk);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
    if (n < chunk.length) {
      toHost[0] = chunk.subarray(n);
      break;
    }
    toHost.shift();
  }
  const pending = toHost.reduce((s, c) => s + c.length, 0);
  if (!hold && pending < 4096 && heldIn.length) mcu.usbCtrl.releaseHeld();
  if (pending >= 4096) hold = hold || 'pty';
  else if (hold === 'pty') hold = false;
}

const wallStart = process.hrtime.bigint();
let wallBaseNs = 0; // wall time spent paused by the emulator being ahead of real time

function runSlice() {
  const end = clock.nanos + SLICE_NS;
  const core = mcu.core;
  while (inject.length && inject[0][0] <= clock.nanos) fromHost = concat(fromHost, inject.shift()[1]);
  while (clock.nanos < end && resetReason === null) {
    if (clock.nanos < stallUntil) {
      clock.tick(Math.min(end, stallUntil) - clock.nanos);
    } else if (core.waiting) {
      // asleep until an interrupt: jump to the next alarm (or the slice end if none)
      const next = clock.nextAlarm ? Math.max(0, clock.nanosToNextAlarm) : end - clock.nanos;
      clock.tick(Math.min(next, end - clock.nanos));
    } else {
      for (let i = 0; i < 256 && !core.waiting; i++) {
        const pc = core.PC;
        if (pc === ROM_ERASE || pc === ROM_PROGRAM) romFlash(pc);
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
    }
    runPio(clock.nanos);
  }
  if (resetReason !== null) doReset(resetReason);
  pumpHost();
  // never run ahead of real time: the host side (pyserial, timeouts) lives in real time
  const wallNs = Number(process.hrtime.bigint() - wallStart) - wallBaseNs;
  const ahead = now() - wallNs;
  if (ahead > 2e6) setTimeout(runSlice, Math.floor(ahead / 1e6));
  else setImmediate(runSlice);
}

function answer(obj) {
  process.stdout.write(JSON.stringify({ t: Math.round(now() / 1000), ...obj }) + '\n');
}

const commands = {
  levels({ values }) {
    // values: 64 readings on the u16 scale, index mux * 16 + channel
    values.forEach((v, i) => (levels[i] = Math.max(0, Math.min(4095, v >> 4))));
    return {};
  },
  reset({ send }) {
    // send: [[us after the reset, hex bytes], ...] the host writes at those instants
    doReset('reset');
    inject = (send || []).map(([us, hex]) => [us * 1000, Uint8Array.from(Buffer.from(hex, 'hex'))]);
    inject.sort((a, b) => a[0] - b[0]);
    return {};
  },
  stall({ ms }) {
    stallUntil = clock.nanos + ms * 1e6;
    return {};
  },
  hold({ on }) {
    hold = !!on;
    return {};
  },
  tap({ clear }) {
    const result = { ...tap, cur: undefined, type: undefined };
    if (clear) tap = newTap();
    return { tap: result, stats, held: heldIn.length, pending: toHost.reduce((s, c) => s + c.length, 0) };
  },
  pins() {
    return { out: mcu.gpio.map((g) => (g.outputEnable ? (g.outputValue ? 1 : 0) : null)) };
  },
  watch({ pin }) {
    if (!watched.has(pin)) {
      watched.add(pin);
      watchPin(pin);
    }
    const got = edges;
    edges = [];
    return { edges: got };
  },
  time() {
    return {};
  },
  quit() {
    setTimeout(() => process.exit(0), 0);
    return {};
  },
};

tap = newTap();
boot();
createInterface({ input: process.stdin }).on('line', (line) => {
  let cmd;
  try {
    cmd = JSON.parse(line);
  } catch {
    answer({ error: `not JSON: ${line}` });
    return;
  }
  const fn = commands[cmd.cmd];
  answer(fn ? fn(cmd) : { error: `unknown command ${cmd.cmd}` });
});
process.stdin.on('end', () => process.exit(0));
answer({ ready: true });
setTimeout(runSlice, 0);
