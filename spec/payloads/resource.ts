/** `resource.*` payloads, experimental (AEP-0002 §5.4). */
import { z } from 'zod';
import { at, citation, document, mCount, mStr, open, rStr } from './common.js';

const docs = () => at('metadata', z.array(document()));

export const resourcePayloads = {
  'resource.retrieval.requested': open({
    query: rStr().optional(),
    query_digest: mStr().optional(),
    corpus: mStr().optional(),
    top_k: mCount().optional(),
  }),
  'resource.retrieval.returned': open({
    documents: docs().optional(),
    count: mCount().optional(),
    corpus: mStr().optional(),
    duration_ms: mCount().optional(),
  }),
  'resource.retrieval.reranked': open({
    query: rStr().optional(),
    query_digest: mStr().optional(),
    model: mStr().optional(),
    top_k: mCount().optional(),
    input_documents: docs().optional(),
    output_documents: docs().optional(),
    count: mCount().optional(),
    duration_ms: mCount().optional(),
  }),
  'resource.citation.recorded': open({
    citations: at('metadata', z.array(citation())).optional(),
    count: mCount().optional(),
  }),
} satisfies Record<string, z.ZodType>;
