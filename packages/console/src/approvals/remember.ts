// What an "always" approval covers, in words (as the terminal says it).
import type { RememberTarget } from '@toolbelt/core';

export function describeRemember(t: RememberTarget): string {
  switch (t.kind) {
    case 'tool':
      return `every ${t.tool} call`;
    case 'prefix':
      return `${t.tool} commands starting with "${t.prefix}"`;
    case 'exact':
      return `exactly "${t.command}"`;
    case 'path':
      return `${t.tool} on ${t.path}`;
  }
}
