import { orderBeacon, RequestValidationError } from 'emporio/feed';
import { describe, expect, it } from 'vitest';

const order = { order_id: 'O-1001', revenue: 1315.25, shipping: '5.45', tax: 301.25, paid_by: 'card', paid_by_descr: 'Visa' } as const;
const items = [{ product_id: 'EX-1001', name: 'Examplewear Canvas Low Sneaker White', price: 654.9, quantity: 2 }];

describe('orderBeacon', () => {
  it('writes the session connect, addOrder and one addItem per line, euros with two decimals as strings', () => {
    const script = orderBeacon(order, items, { vendor: 'shop', shopAccountId: 'SA-0001-0001' });
    expect(script).toBe(
      [
        'shop_analytics("session", "connect", "SA-0001-0001");',
        'shop_analytics("ecommerce", "addOrder", {"order_id":"O-1001","revenue":"1315.25","shipping":"5.45","tax":"301.25","paid_by":"card","paid_by_descr":"Visa"});',
        'shop_analytics("ecommerce", "addItem", {"order_id":"O-1001","product_id":"EX-1001","name":"Examplewear Canvas Low Sneaker White","price":"654.90","quantity":"2"});',
        '',
      ].join('\n'),
    );
    // It runs as the analytics script would call it.
    const calls: unknown[][] = [];
    new Function('shop_analytics', script)((...args: unknown[]) => calls.push(args));
    expect(calls.map((call) => call[1])).toEqual(['connect', 'addOrder', 'addItem']);
  });

  it('cannot be broken out of inside <script>: no </script>, no <!--, no line separators', () => {
    const hostile = '</script><script>alert(1)</script><!-- \u2028 & "quoted"';
    const script = orderBeacon({ ...order, order_id: hostile }, [{ ...items[0]!, name: hostile }], { functionName: 'custom_analytics' });
    expect(script).not.toMatch(/<\/script|<!--|\u2028|\u2029|</i);
    const calls: Record<string, string>[] = [];
    new Function('custom_analytics', script)((_c: string, _m: string, data: Record<string, string>) => calls.push(data));
    expect(calls[0]?.order_id).toBe(hostile);
    expect(calls[1]?.name).toBe(hostile);
  });

  it('checks every value: required fields, euros, quantities, payment types, names', () => {
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(RequestValidationError);
        return (error as RequestValidationError).issues.map((issue) => issue.path.join('.'));
      }
      throw new Error('not refused');
    };
    expect(refused(() => orderBeacon({ ...order, order_id: '', revenue: '1,315.25', paid_by: 'paypall' as 'paypal' }, [{ ...items[0]!, quantity: 1.5 }], { vendor: 'shop' }))).toEqual([
      'order.order_id',
      'order.revenue',
      'order.paid_by',
      'items.0.quantity',
    ]);
    expect(refused(() => orderBeacon({ order_id: 'O', revenue: 1, shipping: 0, tax: 0 }, [], { vendor: 'shop', requirePaidBy: true }))).toEqual([
      'order.paid_by',
      'order.paid_by_descr',
      'items',
    ]);
    expect(refused(() => orderBeacon(order, items, { functionName: 'alert(1);x' }))).toEqual(['options.functionName']);
    expect(refused(() => orderBeacon(order, items, { vendor: 'shop', shopAccountId: 'nope' }))).toEqual(['options.shopAccountId']);
  });

  it('takes the vendor from EMPORIO_VENDOR when not given', () => {
    const saved = process.env.EMPORIO_VENDOR;
    process.env.EMPORIO_VENDOR = 'market';
    try {
      expect(orderBeacon(order, items)).toMatch(/^market_analytics\("ecommerce", "addOrder"/);
    } finally {
      if (saved === undefined) delete process.env.EMPORIO_VENDOR;
      else process.env.EMPORIO_VENDOR = saved;
    }
  });
});
