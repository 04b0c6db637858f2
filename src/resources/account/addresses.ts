import type { APIPromise } from '../../core/api-promise.js';
import { checkRequest } from '../../schemas/common.js';
import { path } from '../../core/paths.js';
import { noData, type RequestOptions } from '../../core/transport.js';
import {
  type Address,
  AddressAnswer,
  AddressesPage,
  type AddressForm,
  AddressFormAnswer,
} from '../../schemas/account.js';
import { AddressCreate, AddressUpdate, GetParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's addresses (the Account API documentation); an address id is what `catalog.personalization.update` takes. */
export class Addresses extends APIResource {
  /** `GET /user/addresses` (not paginated). */
  list(params: GetParams = {}, options?: RequestOptions): APIPromise<Address[]> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user/addresses',
      query: params,
      querySchema: GetParams,
      schema: AddressesPage,
      options,
    }, (body) => body.addresses);
  }

  /** `GET /user/addresses/new`: the required and optional fields, and the regions (name → id, 1 to 57). */
  form(options?: RequestOptions): APIPromise<AddressForm> {
    return this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user/addresses/new',
      schema: AddressFormAnswer,
      options,
    }, (body) => body.address_form);
  }

  /**
   * `POST /user/addresses` (201). Every field but `phone` and `mobile` is required, and
   * `region_id` is between 1 and 57; otherwise `RequestValidationError`, nothing sent.
   */
  create(address: AddressCreate, options?: RequestOptions): APIPromise<Address> {
    return this._transport.request(() => {
      checkRequest(AddressCreate, address, 'address');
      return {
        api: 'account',
        method: 'POST',
        path: '/user/addresses',
        body: address,
        schema: AddressAnswer,
        options,
      };
    }, (body) => body.address);
  }

  /** `PUT /user/addresses/:id` with any subset of the address fields. */
  update(id: number, changes: AddressUpdate, options?: RequestOptions): APIPromise<Address> {
    return this._transport.request(() => {
      checkRequest(AddressUpdate, changes, 'address');
      return {
        api: 'account',
        method: 'PUT',
        path: path`/user/addresses/${id}`,
        body: changes,
        schema: AddressAnswer,
        options,
      };
    }, (body) => body.address);
  }

  /** `DELETE /user/addresses/:id` (the answer body is not documented). */
  delete(id: number, options?: RequestOptions): APIPromise<void> {
    return this._transport.request({ api: 'account', method: 'DELETE', path: path`/user/addresses/${id}`, options }, noData);
  }
}
