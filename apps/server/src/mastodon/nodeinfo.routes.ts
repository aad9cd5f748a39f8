import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linksOf } from './context';
import { PERCH_VERSION } from './instance';
import type { InstanceCounts } from '../modules/instance/instance.service';

const VERSIONS = ['2.0', '2.1'] as const;
const schemaOf = (version: string) => `http://nodeinfo.diaspora.software/ns/schema/${version}`;

/** The NodeInfo document (nodeinfo.diaspora.software) of one schema version. */
export function nodeInfo(version: (typeof VERSIONS)[number], counts: InstanceCounts) {
  const software = { name: 'perch', version: PERCH_VERSION };
  return {
    version,
    software,
    // Perch does not federate yet: it speaks no server-to-server protocol.
    protocols: [],
    services: { inbound: [], outbound: [] },
    openRegistrations: true,
    usage: {
      users: {
        total: counts.members,
        activeHalfyear: counts.activeHalfyear,
        activeMonth: counts.activeMonth,
      },
      localPosts: counts.posts,
      localComments: counts.comments,
    },
    metadata: {},
  } satisfies mastodon.NodeInfo;
}

/** /.well-known/nodeinfo and the documents it points to, /nodeinfo/2.0 and /nodeinfo/2.1. */
export const nodeInfoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { instance } = app.services;
  app.get(
    '/.well-known/nodeinfo',
    {
      schema: {
        summary: "Where the server's NodeInfo documents are",
        response: { 200: mastodon.nodeInfoLinksSchema },
      },
    },
    (request) => {
      const { origin } = linksOf(app, request);
      return {
        links: VERSIONS.map((version) => ({
          rel: schemaOf(version),
          href: `${origin}/nodeinfo/${version}`,
        })),
      };
    },
  );
  app.get(
    '/nodeinfo/:version',
    {
      schema: {
        summary: 'The NodeInfo document: the software and its usage',
        params: z.object({ version: z.enum(VERSIONS) }),
        response: { 200: mastodon.nodeInfoSchema },
      },
    },
    async (request, reply) => {
      const { version } = request.params;
      void reply.type(`application/json; profile="${schemaOf(version)}#"`);
      return nodeInfo(version, await instance.counts());
    },
  );
};
