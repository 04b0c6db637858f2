/**
 * Favorites: keep a user's favorite SKUs in lists, and read the notifications they bring.
 *
 * Account calls need a user token with the favorites (and, for notifications, the
 * notifications) permission; a 401 or 403 says in its message which one is missing.
 *
 * Run against the bundled mock marketplace (nothing leaves the machine):
 *   npx tsx examples/favorites.ts
 * Run against a real service (with a user token):
 *   EMPORIO_BASE_URL=https://api.example.gr EMPORIO_VENDOR=example EMPORIO_TOKEN=... \
 *     npx tsx examples/favorites.ts <sku id>
 */
import { pathToFileURL } from 'node:url';
import { MarketplaceClient, NotFoundError } from 'emporio';
import { startMockMarketplace } from 'emporio/testing';

export async function manageFavorites(client: MarketplaceClient, skuId: number): Promise<void> {
  // Without a list, a new favorite goes to its category's auto list (negative id).
  const favorite = await client.account.favorites.create({ sku_id: skuId });
  console.log(`favorite ${favorite.id} for SKU ${favorite.sku_id}`);

  // Move it into a custom list, created on the way if missing.
  const moved = await client.account.favorites.update(favorite.id, { new_list_name: 'Gift ideas' });
  console.log(`moved to a custom list (have_it: ${moved.have_it})`);

  for await (const list of client.account.favoriteLists.list()) {
    console.log(`list ${list.id} "${list.name}" (${list.type ?? 'owned'})`);
  }

  // Is the SKU among the user's favorites? (the catalog's per-SKU lookup)
  const forSku = await client.catalog.skus.favorite(skuId);
  console.log(`${forSku.length} favorite(s) of SKU ${skuId}`);

  // Mark it owned: an owned favorite belongs to no list.
  await client.account.favorites.update(favorite.id, { have_it: true });
  const owned = await client.account.favorites.list({ owned: true });
  console.log(`${owned.items.length} owned favorite(s) on the first page`);

  // Notifications (price drops and the like), then mark the unread ones viewed.
  const unread: number[] = [];
  for await (const notification of client.account.notifications.list({ per: 10 })) {
    if (!notification.is_viewed) unread.push(notification.id);
  }
  if (unread.length) await client.account.notifications.markViewed(unread);
  console.log(`${unread.length} notification(s) marked viewed`);

  await client.account.favorites.delete(favorite.id);
  try {
    await client.account.favorites.get(favorite.id);
  } catch (error) {
    if (error instanceof NotFoundError) console.log('deleted: the favorite is gone (404)');
    else throw error;
  }
}

async function main(): Promise<void> {
  const baseUrl = process.env.EMPORIO_BASE_URL;
  if (baseUrl) {
    const client = new MarketplaceClient({ baseUrl, vendor: process.env.EMPORIO_VENDOR ?? 'marketplace', token: process.env.EMPORIO_TOKEN });
    await manageFavorites(client, Number(process.argv[2]));
    return;
  }

  const server = await startMockMarketplace({ port: 0 });
  try {
    const { mock } = server;
    const client = new MarketplaceClient({ baseUrl: server.url, vendor: mock.vendor, tokens: { catalog: mock.tokens.catalog, account: mock.tokens.account } });
    await manageFavorites(client, mock.catalog.ids.sku);
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
