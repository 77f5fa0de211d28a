import type { CjCategoriesResponse, CjListQuery, CjProductListResponse, CjProductResponse } from '@shop/contracts';
import { CJ_MESSAGES } from '@shop/contracts';
import type { Executor } from '../../db/client.ts';
import { badRequest } from '../../lib/errors.ts';
import { findSavedIds } from './saved-products.ts';
import { suggestCategory } from './suggest-category.ts';
import type { SupplierCatalogue } from './supplier-catalogue.ts';
import { presentListItem, presentSupplierProduct } from './supplier.presenter.ts';

/** A page of the supplier catalogue, each product marked Saved / Not Saved. */
export async function listSupplierProducts(db: Executor, catalogue: SupplierCatalogue, q: CjListQuery): Promise<CjProductListResponse> {
  const page = await catalogue.listProducts({ pageNum: q.page, pageSize: q.limit, keyword: q.query || undefined, categoryId: q.category || undefined });
  const saved = await findSavedIds(db, page.list.map((p) => p.pid));
  const total = Math.max(0, Math.floor(page.total));
  return {
    data: {
      content: page.list.map((p) => presentListItem(p, saved)),
      pageNum: q.page,
      pageSize: q.limit,
      total,
      totalPages: Math.ceil(total / q.limit),
    },
    source: catalogue.source,
  };
}

export const isValidPid = (pid: string) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(pid);

/** One supplier product with its variants (the edit form's starting point). */
export async function getSupplierProduct(db: Executor, catalogue: SupplierCatalogue, pid: string): Promise<CjProductResponse> {
  if (!isValidPid(pid)) throw badRequest(CJ_MESSAGES.pidMissing, { pid: CJ_MESSAGES.pidMissing });
  const product = await catalogue.getProduct(pid);
  const saved = await findSavedIds(db, [product.pid]);
  const suggestedCategory = await suggestCategory(db, product);
  return { ...presentSupplierProduct(product, saved.get(product.pid) ?? null), source: catalogue.source, suggestedCategory };
}

/** The supplier's categories, flattened to the third level that products belong to. */
export async function listSupplierCategories(catalogue: SupplierCatalogue): Promise<CjCategoriesResponse> {
  const tree = await catalogue.getCategories();
  const categories = tree.flatMap((first) =>
    first.categoryFirstList.flatMap((second) =>
      second.categorySecondList.map((third) => ({
        categoryId: third.categoryId,
        categoryName: third.categoryName,
        group: [first.categoryFirstName, second.categorySecondName].filter(Boolean).join(' > '),
      }))));
  return { source: catalogue.source, categories };
}
