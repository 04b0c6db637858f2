import { createFeedWriter, type FeedProduct } from 'emporio/feed';

/** A product that meets every rule; tests change one attribute at a time. */
export function sampleProduct(overrides: Partial<FeedProduct> = {}): FeedProduct {
  return {
    id: 'EX-1001',
    name: 'Examplewear Canvas Low Sneaker White',
    link: 'https://shop.example.com/product.php?id=1001&lang=en',
    image: 'https://shop.example.com/images/ex-1001.jpg',
    additional_images: ['https://shop.example.com/images/ex-1001-side.jpg'],
    category: 'Fashion > Shoes > Sneakers',
    price: 49.9,
    vat: 24,
    availability: 'Available from 1 to 3 days',
    manufacturer: 'Examplewear',
    mpn: 'EXW-CL-1001-WHT',
    ean: '2001001001018',
    description: 'Low-top canvas sneaker with a rubber sole.',
    quantity: 25,
    size: '40,41,42',
    ...overrides,
  };
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A feed of `count` valid products (`P-0`, `P-1`, …) as the writer writes it. */
export async function written(count = 3): Promise<Uint8Array> {
  const writer = createFeedWriter({ createdAt: new Date(2026, 5, 10, 9, 30) });
  const bytes = readAll(writer.readable);
  for (let i = 0; i < count; i++) await writer.write(sampleProduct({ id: `P-${i}` }));
  writer.end();
  return bytes;
}
