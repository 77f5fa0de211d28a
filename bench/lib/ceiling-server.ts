/**
 * The ceiling's server, run as a child process by ceiling.ts: a bare Fastify app whose one route
 * returns a prepared 12-product JSON page (a search response of the shop's shape, serialized once),
 * so its figures are what Node's HTTP stack and Fastify alone do on this machine at this moment.
 * Prints `{"port": N}` on stdout once listening; exits when its parent disconnects.
 */
import Fastify from 'fastify';
import { productSearchResponseSchema, type ProductSearchResponse } from '@shop/contracts';

function page(): ProductSearchResponse {
  const when = new Date('2026-01-01T00:00:00Z').toISOString();
  const products = Array.from({ length: 12 }, (_, i) => ({
    _id: `6b047a530518596e5abe${String(i).padStart(4, '0')}`,
    name: `Ceiling Product ${i + 1}`,
    slug: `ceiling-product-${i + 1}`,
    price: 19.99 + i * 10,
    finalPrice: i % 3 === 0 ? Math.round((19.99 + i * 10) * 85) / 100 : 19.99 + i * 10,
    image: `/uploads/ceiling-product-${i + 1}.webp`,
    images: [`/uploads/ceiling-product-${i + 1}-2.webp`, `/uploads/ceiling-product-${i + 1}-3.webp`],
    category: 'Electronics',
    brand: 'Ceiling',
    countInStock: 10 + i,
    description: 'A product of the prepared page the ceiling route answers: about as long as a real description in the demo catalogue, so the body weighs what a search page weighs.',
    rating: 4.5,
    numReviews: 12 + i,
    isTodaysDeal: i === 0,
    isGift: false,
    isOnSale: i % 3 === 0,
    saleDiscount: i % 3 === 0 ? 15 : 0,
    cjData: null,
    createdAt: when,
    updatedAt: when,
  }));
  return productSearchResponseSchema.parse({ products, page: 1, pages: 834, countProducts: 10_000 });
}

const body = JSON.stringify(page());
const app = Fastify({ logger: false });
app.get('/ceiling', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, bytes: body.length })}\n`);
process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
