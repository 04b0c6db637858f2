import { checkRequest } from '../../schemas/common.js';
import { path } from '../../core/paths.js';
import type { RequestOptions } from '../../core/transport.js';
import {
  type Address,
  AddressAnswer,
  AddressesPage,
  type AddressForm,
  AddressFormAnswer,
} from '../../schemas/account.js';
import { AddressCreate, AddressUpdate, GetParams } from '../../schemas/query.js';
import { APIResource } from '../resource.js';

/** The user's addresses (document 3); an address id is what `catalog.personalization.update` takes. */
export class Addresses extends APIResource {
  /** `GET /user/addresses` (not paginated). */
  async list(params: GetParams = {}, options?: RequestOptions): Promise<Address[]> {
    const body = await this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user/addresses',
      query: params,
      querySchema: GetParams,
      schema: AddressesPage,
      options,
    });
    return body.addresses;
  }

  /** `GET /user/addresses/new`: the required and optional fields, and the regions (name → id, 1 to 57). */
  async form(options?: RequestOptions): Promise<AddressForm> {
    const body = await this._transport.request({
      api: 'account',
      method: 'GET',
      path: '/user/addresses/new',
      schema: AddressFormAnswer,
      options,
    });
    return body.address_form;
  }

  /**
   * `POST /user/addresses` (201). Every field but `phone` and `mobile` is required, and
   * `region_id` is between 1 and 57; otherwise `RequestValidationError`, nothing sent.
   */
  async create(address: AddressCreate, options?: RequestOptions): Promise<Address> {
    checkRequest(AddressCreate, address, 'address');
    const body = await this._transport.request({
      api: 'account',
      method: 'POST',
      path: '/user/addresses',
      body: address,
      schema: AddressAnswer,
      options,
    });
    return body.address;
  }

  /** `PUT /user/addresses/:id` with any subset of the address fields. */
  async update(id: number, changes: AddressUpdate, options?: RequestOptions): Promise<Address> {
    checkRequest(AddressUpdate, changes, 'address');
    const body = await this._transport.request({
      api: 'account',
      method: 'PUT',
      path: path`/user/addresses/${id}`,
      body: changes,
      schema: AddressAnswer,
      options,
    });
    return body.address;
  }

  /** `DELETE /user/addresses/:id` (the answer body is not documented). */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    await this._transport.request({ api: 'account', method: 'DELETE', path: path`/user/addresses/${id}`, options });
  }
}
