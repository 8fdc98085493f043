// Loaded into every node process of the client (NODE_OPTIONS=--require):
// a socket to anything but loopback is refused at once, and its address
// appended to $ST_E2E_OFFLOOP_LOG, which the test reads and fails on.
'use strict';
const net = require('net');
const fs = require('fs');
const dns = require('dns');
const log = process.env.ST_E2E_OFFLOOP_LOG;
function loopback(host) {
  if (!host) return true; // a unix socket path or the default, which is localhost
  host = String(host).replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.') || host === '::ffff:127.0.0.1';
}
function note(what) {
  if (log) { try { fs.appendFileSync(log, what + '\n'); } catch (e) { /* the test sees nothing: it then fails on the missing request */ } }
}
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  let opts = args[0];
  if (Array.isArray(opts)) opts = opts[0];
  let host, path;
  if (typeof opts === 'object' && opts !== null) { host = opts.host; path = opts.path; }
  else if (typeof args[1] === 'string') { host = args[1]; }
  if (!path && !loopback(host)) {
    note('connect ' + host + ':' + (typeof opts === 'object' && opts ? opts.port : opts));
    const err = new Error('e2e guard: no network off loopback (' + host + ')');
    err.code = 'ECONNREFUSED';
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function (host, options, callback) {
  if (loopback(host)) return lookup.apply(this, arguments);
  note('lookup ' + host);
  const cb = typeof options === 'function' ? options : callback;
  const err = new Error('e2e guard: no name lookups off loopback (' + host + ')');
  err.code = 'ENOTFOUND';
  process.nextTick(() => cb(err));
  return {};
};
const plookup = dns.promises.lookup;
dns.promises.lookup = function (host, ...rest) {
  if (loopback(host)) return plookup.call(this, host, ...rest);
  note('lookup ' + host);
  const err = new Error('e2e guard: no name lookups off loopback (' + host + ')');
  err.code = 'ENOTFOUND';
  return Promise.reject(err);
};
