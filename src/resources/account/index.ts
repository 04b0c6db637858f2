import type { Transport } from '../../core/transport.js';
import { Addresses } from './addresses.js';
import { FavoriteLists } from './favorite-lists.js';
import { Favorites } from './favorites.js';
import { Notifications } from './notifications.js';
import { SavedOrders } from './saved-orders.js';
import { User } from './user.js';

/**
 * User-account resources (the Account API documentation). Every call needs a user access token (`tokens.account`,
 * or the default `token`); favorites need its favorites permission, notifications its
 * notifications permission, and a 401 or 403 says which.
 */
export class Account {
  readonly favoriteLists: FavoriteLists;
  readonly favorites: Favorites;
  readonly user: User;
  readonly addresses: Addresses;
  readonly savedOrders: SavedOrders;
  readonly notifications: Notifications;

  /** @internal */
  constructor(transport: Transport) {
    this.favoriteLists = new FavoriteLists(transport);
    this.favorites = new Favorites(transport);
    this.user = new User(transport);
    this.addresses = new Addresses(transport);
    this.savedOrders = new SavedOrders(transport);
    this.notifications = new Notifications(transport);
  }
}

export type { Addresses, FavoriteLists, Favorites, Notifications, SavedOrders, User };
