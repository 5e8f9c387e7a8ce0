#!/usr/bin/python3
"""Report every option in the given placement.conf files that the installed
placement (+ keystonemiddleware, oslo.log, oslo.policy, oslo.middleware) does
not register. Run with /usr/bin/python3 (Debian's interpreter)."""
import configparser, sys
from oslo_config import cfg
from oslo_log import log
from placement import conf as pconf
from keystonemiddleware.auth_token import _opts as ksm_opts
from keystoneauth1 import loading as ksa_loading

c = cfg.ConfigOpts()
pconf.register_opts(c)
log.register_options(c)
for group, opts in ksm_opts.list_opts():
    c.register_opts(opts, group=group)
# auth plugin options for auth_type=password live in [keystone_authtoken] too
ksa_loading.register_auth_conf_options(c, 'keystone_authtoken')
for o in ksa_loading.get_auth_plugin_conf_options('password'):
    c.register_opt(o, group='keystone_authtoken')
from oslo_policy import opts as pol_opts
pol_opts._register(c) if hasattr(pol_opts, '_register') else None
for group, opts in pol_opts.list_opts():
    c.register_opts(opts, group=group)

known = {}
for g, o in c._groups.items():
    known[g] = {n for n in o._opts} | {d.name for opt in o._opts.values() for d in opt['opt'].deprecated_opts if d.name}
known['DEFAULT'] = set(c._opts)
bad = 0
for path in sys.argv[1:]:
    p = configparser.RawConfigParser(strict=False); p.optionxform = str
    p.read(path)
    sections = ['DEFAULT'] + p.sections()
    for s in sections:
        items = p.defaults().items() if s == 'DEFAULT' else [(k, v) for k, v in p.items(s, raw=True) if k not in p.defaults()]
        for k, v in items:
            if s not in known:
                print(f"{path}: [{s}] unknown GROUP (option {k})"); bad += 1
            elif k not in known[s]:
                print(f"{path}: [{s}] {k} unknown to this release"); bad += 1
print(f"{bad} unknown option(s)")
