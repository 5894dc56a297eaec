// Whether the sandbox tests can run here. They skip, saying why, where bubblewrap or user
// namespaces are missing; with TOOLBELT_REQUIRE_SANDBOX=1 (CI) they fail instead.
import { probeSandbox } from '../probe.js';

const status = await probeSandbox('bwrap');
if (!status.ok && process.env.TOOLBELT_REQUIRE_SANDBOX === '1') {
  throw new Error(`TOOLBELT_REQUIRE_SANDBOX=1 but the sandbox does not work here: ${status.reason} (${status.hint})`);
}
if (!status.ok) console.warn(`sandbox tests skipped: ${status.reason} (${status.hint})`);

export const sandboxWorks = status.ok;
