// `npm run fleet:config`: writes deploy/container/haproxy.cfg, the container fleet's rendering of the
// shipped deploy/haproxy.cfg (renderContainerHaproxyConfig), after that file changed. A test fails
// while the kept rendering differs from a fresh one.
import { writeFileSync } from 'node:fs';
import { CONTAINER_HAPROXY_CONFIG, renderContainerHaproxyConfig } from './haproxy.ts';

writeFileSync(CONTAINER_HAPROXY_CONFIG, renderContainerHaproxyConfig());
console.info(`wrote ${CONTAINER_HAPROXY_CONFIG}`);
