/**
 * The lists module's public surface: the module as the composition root builds it, its service,
 * its spreadsheet rules, which opt-outs and enrichment read their uploads with (open a CSV/XLSX,
 * guess its columns), a list made directly from contacts (enrichment's results), and the lists
 * table campaigns read.
 */
export { createDirectListsRepository, type DirectContact, type DirectList } from './lists.direct.repository.ts';
export { createListsModule, type ListsModule } from './lists.module.ts';
export { contactLists } from './lists.schema.ts';
export { createListsService, type ListsService } from './lists.service.ts';
export { detectMapping } from './parser/mapping.ts';
export { openSpreadsheet } from './parser/source.ts';
