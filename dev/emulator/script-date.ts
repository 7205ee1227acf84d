/**
 * The script's `Date`: it follows the emulator clock (`new Date()`, `Date.now()`) and reads and
 * writes local fields in the script's time zone (the manifest's `timeZone`), as Apps Script
 * does, whatever the time zone of the Node process. Runs inside the script's realm: this file
 * holds its source and the host functions it calls.
 */
import vm from "node:vm";
import { formatDate } from "./format-date";
import { instantInZone, offsetMinutes } from "./time-zone";

/** Host functions the prelude calls. */
export interface ScriptZone {
  now(): number;
  /** Minutes east of UTC at that instant. */
  offset(epochMs: number): number;
  /** The instant at which the zone's wall clock shows these fields (month 1-12). */
  instant(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number;
  format(epochMs: number, pattern: string): string;
  name: string;
}

export function scriptZone(timeZone: string, now: () => number): ScriptZone {
  return {
    now,
    offset: (ms) => offsetMinutes(ms, timeZone),
    instant: (y, mo, d, h, mi, s, ms) => instantInZone(timeZone, y, mo, d, h, mi, s, ms),
    format: (ms, pattern) => formatDate(ms, timeZone, pattern),
    name: timeZone,
  };
}

/**
 * Source of the prelude: a function of the ScriptZone that installs the Date and returns the
 * realm's constructors for the realm border.
 */
export const DATE_PRELUDE = `(function (zone) {
  var RealDate = Date;
  var P = RealDate.prototype;
  var getTime = P.getTime;
  var NAMES = ["FullYear", "Month", "Date", "Hours", "Minutes", "Seconds", "Milliseconds"];
  var ISO_LOCAL = /^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,3}))?)?$/;

  // Code reads several fields of one date in a row (getFullYear, getMonth, getDate…): the
  // last instant's fields are kept, so those reads cost one offset lookup, not one each.
  var lastT = NaN;
  var lastFields = null;
  function fieldsOf(t) {
    if (t === lastT) return lastFields;
    var s = new RealDate(t + zone.offset(t) * 60000);
    lastFields = [s.getUTCFullYear(), s.getUTCMonth(), s.getUTCDate(), s.getUTCHours(),
      s.getUTCMinutes(), s.getUTCSeconds(), s.getUTCMilliseconds(), s.getUTCDay()];
    lastT = t;
    return lastFields;
  }
  function fromFields(f) {
    for (var i = 0; i < 7; i++) if (typeof f[i] !== "number" || f[i] !== f[i]) return NaN;
    var w = new RealDate(RealDate.UTC(f[0], f[1], f[2], f[3], f[4], f[5], f[6]));
    if (f[0] >= 0 && f[0] <= 99) w.setUTCFullYear(f[0]);
    return zone.instant(w.getUTCFullYear(), w.getUTCMonth() + 1, w.getUTCDate(), w.getUTCHours(),
      w.getUTCMinutes(), w.getUTCSeconds(), w.getUTCMilliseconds());
  }
  function localFromArgs(args) {
    var f = [0, 0, 1, 0, 0, 0, 0];
    for (var i = 0; i < args.length && i < 7; i++) f[i] = Number(args[i]);
    if (f[0] >= 0 && f[0] <= 99) f[0] += 1900;
    return fromFields(f);
  }
  function parse(text) {
    var m = ISO_LOCAL.exec(String(text));
    if (!m) return RealDate.parse(text);
    return fromFields([+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0), +((m[7] || "0") + "00").slice(0, 3)]);
  }

  function EmulatedDate(a) {
    if (!new.target) return new RealDate(zone.now()).toString();
    if (arguments.length === 0) return new RealDate(zone.now());
    if (arguments.length === 1) {
      if (typeof a === "string") return new RealDate(parse(a));
      return new RealDate(a instanceof RealDate ? getTime.call(a) : a);
    }
    return new RealDate(localFromArgs(arguments));
  }
  EmulatedDate.prototype = P;
  EmulatedDate.now = function () { return zone.now(); };
  EmulatedDate.parse = parse;
  EmulatedDate.UTC = RealDate.UTC;
  Object.defineProperty(P, "constructor", { value: EmulatedDate, writable: true, configurable: true });

  NAMES.forEach(function (name, i) {
    Object.defineProperty(P, "get" + name, { configurable: true, writable: true, value: function () {
      var t = getTime.call(this);
      return t !== t ? NaN : fieldsOf(t)[i];
    } });
    Object.defineProperty(P, "set" + name, { configurable: true, writable: true, value: function () {
      var t = getTime.call(this);
      var f = fieldsOf(t !== t ? 0 : t).slice();
      var count = name === "FullYear" ? 3 : name === "Month" ? 2 : name === "Hours" ? 4 : name === "Minutes" ? 3 : name === "Seconds" ? 2 : 1;
      for (var k = 0; k < count && k < arguments.length; k++) f[i + k] = Number(arguments[k]);
      var next = fromFields(f);
      this.setTime(next);
      return next;
    } });
  });
  Object.defineProperty(P, "getDay", { configurable: true, writable: true, value: function () {
    var t = getTime.call(this);
    return t !== t ? NaN : fieldsOf(t)[7];
  } });
  Object.defineProperty(P, "getTimezoneOffset", { configurable: true, writable: true, value: function () {
    var t = getTime.call(this);
    return t !== t ? NaN : -zone.offset(t);
  } });
  function formatted(pattern, suffix) {
    return function () {
      var t = getTime.call(this);
      if (t !== t) return "Invalid Date";
      return zone.format(t, pattern) + (suffix ? " (" + zone.name + ")" : "");
    };
  }
  P.toString = formatted("EEE MMM dd yyyy HH:mm:ss 'GMT'Z", true);
  P.toDateString = formatted("EEE MMM dd yyyy", false);
  P.toTimeString = formatted("HH:mm:ss 'GMT'Z", true);
  ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"].forEach(function (name) {
    var original = P[name];
    P[name] = function (locales, options) {
      var o = {};
      for (var k in options || {}) o[k] = options[k];
      if (!o.timeZone) o.timeZone = zone.name;
      return original.call(this, locales, o);
    };
  });
  Object.defineProperty(globalThis, "Date", { value: EmulatedDate, writable: true, configurable: true });
  var ScriptArray = Array;
  return {
    Array: Array,
    Object: Object,
    Error: Error,
    date: function (ms) { return new RealDate(ms); },
    // A grid of the fakes' values copied into arrays of this realm here, where the loop runs
    // without a call across realms per row (a sheet's read is thousands of rows).
    rows: function (grid) {
      var out = new ScriptArray(grid.length);
      for (var i = 0; i < grid.length; i++) {
        var row = grid[i];
        var copy = new ScriptArray(row.length);
        for (var j = 0; j < row.length; j++) copy[j] = row[j];
        out[i] = copy;
      }
      return out;
    },
  };
})`;

let preludeScript: vm.Script | undefined;

/**
 * The prelude evaluated in `context` (compiled once per thread: each realm still gets its own
 * function from it): call what it returns with the ScriptZone.
 */
export function datePreludeIn(context: vm.Context): unknown {
  preludeScript ??= new vm.Script(DATE_PRELUDE);
  return preludeScript.runInContext(context);
}
