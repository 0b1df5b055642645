// Every word the generated app shows, in English and Chinese, with the entity's and the fields' labels put in: the
// app's catalogues (messages/en.json, messages/zh.json) are complete when it is written.
import type { NewAppSpec } from '../new-app-spec.ts'

type Message = string | unknown[]

/** An English message that counts: a form for one and one for many, as inlang's message format writes it. */
function counting(input: string, one: string, other: string): unknown[] {
  return [
    {
      declarations: [`input ${input}`, `local ${input}Plural = ${input}: plural`],
      selectors: [`${input}Plural`],
      match: { [`${input}Plural=one`]: one, [`${input}Plural=other`]: other },
    },
  ]
}

function fieldMessages(spec: NewAppSpec): { en: Record<string, Message>; zh: Record<string, Message> } {
  const en: Record<string, Message> = {}
  const zh: Record<string, Message> = {}
  for (const field of spec.fields) {
    const label = field.label
    en[`${spec.table}_field_${field.column}`] = label.en
    zh[`${spec.table}_field_${field.column}`] = label.zh
    const stem = `validation_${spec.table}_${field.column}`
    switch (field.kind) {
      case 'text':
      case 'longtext':
        en[`${stem}_too_long`] = counting('max', `At most {max} character.`, `At most {max} characters.`)
        zh[`${stem}_too_long`] = `${label.zh}最多 {max} 个字符。`
        break
      case 'list':
        en[`${stem}_invalid`] = `Write the ${label.en.toLowerCase()} separated by commas.`
        zh[`${stem}_invalid`] = `请用逗号分隔${label.zh}。`
        en[`${stem}_too_many`] = counting('max', `At most {max} entry.`, `At most {max} entries.`)
        zh[`${stem}_too_many`] = `${label.zh}最多 {max} 项。`
        en[`${stem}_entry_too_long`] = counting(
          'max',
          `Each entry: at most {max} character.`,
          `Each entry: at most {max} characters.`,
        )
        zh[`${stem}_entry_too_long`] = `${label.zh}的每一项最多 {max} 个字符。`
        break
      case 'integer':
        en[`${stem}_invalid`] = 'Enter a whole number.'
        zh[`${stem}_invalid`] = `${label.zh}请输入整数。`
        break
      case 'year':
        en[`${stem}_invalid`] = 'Enter a year from {min} to {max}.'
        zh[`${stem}_invalid`] = `${label.zh}请输入 {min} 到 {max} 之间的年份。`
        break
      case 'url':
        en[`${stem}_invalid`] = 'Enter an address starting with https:// or http://.'
        zh[`${stem}_invalid`] = `${label.zh}请输入以 https:// 或 http:// 开头的地址。`
        break
    }
  }
  return { en, zh }
}

export function messageCatalogues(spec: NewAppSpec): { en: string; zh: string } {
  const p = spec.table
  const e = spec.english
  const z = spec.label.zh
  const en: Record<string, Message> = {
    $schema: 'https://inlang.com/schema/inlang-message-format',
    [`console_${p}`]: e.many,
    [`perm_resource_${spec.entitySnake}`]: e.many,
    [`event_${spec.entitySnake}_created`]: `A ${e.oneInSentence} was created`,
    [`event_${spec.entitySnake}_updated`]: `A ${e.oneInSentence} was changed`,
    [`event_${spec.entitySnake}_deleted`]: `A ${e.oneInSentence} was deleted`,
    [`error_code_${spec.entityCode}_NOT_FOUND`]: `This ${e.oneInSentence} does not exist, or it was deleted.`,
    [`error_code_${spec.entityCode}_IMPORT_HAS_ERRORS`]: 'The file has problems; nothing was imported.',
    [`${p}_description`]: `Every ${e.oneInSentence} in {organization}: search, sort, import and export.`,
    [`${p}_new`]: `New ${e.oneInSentence}`,
    [`${p}_import`]: 'Import CSV',
    [`${p}_export`]: 'Export CSV',
    [`${p}_exported`]: 'Saved {filename}.',
    [`${p}_search_placeholder`]: `Search ${e.manyInSentence}…`,
    [`${p}_empty_title`]: `No ${e.manyInSentence} yet`,
    [`${p}_empty`]: `Add the first ${e.oneInSentence}, or import a CSV file.`,
    [`${p}_no_match_title`]: `No ${e.manyInSentence} match`,
    [`${p}_no_match`]: 'Try other words, or clear the search.',
    [`${p}_col_created_by`]: 'Added by',
    [`${p}_col_created`]: 'Added',
    [`${p}_col_updated`]: 'Changed',
    [`${p}_former_member`]: 'A former member',
    [`${p}_actions_for`]: 'Actions for {name}',
    [`${p}_view`]: 'View',
    [`${p}_edit`]: 'Edit',
    [`${p}_delete`]: 'Delete',
    [`${p}_deleted`]: 'Deleted {name}.',
    [`${p}_undo`]: 'Undo',
    [`${p}_restored`]: 'Restored.',
    [`${p}_created`]: 'Added {name}.',
    [`${p}_saved`]: 'Saved {name}.',
    [`${p}_form_create_title`]: `New ${e.oneInSentence}`,
    [`${p}_form_edit_title`]: `Edit ${e.oneInSentence}`,
    [`${p}_form_save`]: 'Save',
    [`${p}_form_saving`]: 'Saving…',
    [`${p}_form_cancel`]: 'Cancel',
    [`${p}_details_back`]: `All ${e.manyInSentence}`,
    [`${p}_details_crumb`]: e.one,
    [`${p}_details_added`]: 'Added by {name} on {date}',
    [`${p}_details_updated`]: 'changed {date}',
    [`${p}_import_title`]: `Import ${e.manyInSentence}`,
    [`${p}_import_description`]: `A CSV file with a header row; its columns are named as an export names them. Only a file without problems is imported, and then all of it.`,
    [`${p}_import_file`]: 'CSV file',
    [`${p}_import_submit`]: 'Import',
    [`${p}_import_ready`]: counting(
      'rows',
      'The {rows} row is ready to import.',
      'All {rows} rows are ready to import.',
    ),
    [`${p}_import_problems`]: counting(
      'problems',
      '{problems} problem. Nothing has been imported: fix the file, then choose it again.',
      '{problems} problems. Nothing has been imported: fix the file, then choose it again.',
    ),
    [`${p}_import_problem`]: 'Line {line}, {column}: {message}',
    [`${p}_imported`]: counting(
      'count',
      `Imported {count} ${e.oneInSentence}.`,
      `Imported {count} ${e.manyInSentence}.`,
    ),
    [`${p}_import_missing_column`]: 'The file has no {column} column in its header row.',
    [`${p}_import_empty`]: 'The file has no rows below its header.',
    [`${p}_import_too_many_rows`]: counting('max', 'At most {max} row per file.', 'At most {max} rows per file.'),
    [`${p}_import_malformed_row`]: 'This row could not be read as CSV.',
    [`validation_${p}_import_too_large`]: 'The file is too large: split it into smaller files.',
  }
  const zh: Record<string, Message> = {
    $schema: 'https://inlang.com/schema/inlang-message-format',
    [`console_${p}`]: z,
    [`perm_resource_${spec.entitySnake}`]: z,
    [`event_${spec.entitySnake}_created`]: `创建了${z}`,
    [`event_${spec.entitySnake}_updated`]: `修改了${z}`,
    [`event_${spec.entitySnake}_deleted`]: `删除了${z}`,
    [`error_code_${spec.entityCode}_NOT_FOUND`]: `该${z}不存在，或已被删除。`,
    [`error_code_${spec.entityCode}_IMPORT_HAS_ERRORS`]: '文件有问题，未导入任何内容。',
    [`${p}_description`]: `{organization} 的所有${z}：搜索、排序、导入和导出。`,
    [`${p}_new`]: `新建${z}`,
    [`${p}_import`]: '导入 CSV',
    [`${p}_export`]: '导出 CSV',
    [`${p}_exported`]: '已保存 {filename}。',
    [`${p}_search_placeholder`]: `搜索${z}…`,
    [`${p}_empty_title`]: `还没有${z}`,
    [`${p}_empty`]: `添加第一个${z}，或导入 CSV 文件。`,
    [`${p}_no_match_title`]: `没有匹配的${z}`,
    [`${p}_no_match`]: '换个关键词试试，或清除搜索。',
    [`${p}_col_created_by`]: '添加者',
    [`${p}_col_created`]: '添加时间',
    [`${p}_col_updated`]: '修改时间',
    [`${p}_former_member`]: '已离开的成员',
    [`${p}_actions_for`]: '{name} 的操作',
    [`${p}_view`]: '查看',
    [`${p}_edit`]: '编辑',
    [`${p}_delete`]: '删除',
    [`${p}_deleted`]: '已删除 {name}。',
    [`${p}_undo`]: '撤销',
    [`${p}_restored`]: '已恢复。',
    [`${p}_created`]: '已添加 {name}。',
    [`${p}_saved`]: '已保存 {name}。',
    [`${p}_form_create_title`]: `新建${z}`,
    [`${p}_form_edit_title`]: `编辑${z}`,
    [`${p}_form_save`]: '保存',
    [`${p}_form_saving`]: '正在保存…',
    [`${p}_form_cancel`]: '取消',
    [`${p}_details_back`]: `全部${z}`,
    [`${p}_details_crumb`]: z,
    [`${p}_details_added`]: '由 {name} 于 {date} 添加',
    [`${p}_details_updated`]: '修改于 {date}',
    [`${p}_import_title`]: `导入${z}`,
    [`${p}_import_description`]:
      '带表头的 CSV 文件，列名与导出文件相同。只有没有问题的文件才会导入，并且整个文件一起导入。',
    [`${p}_import_file`]: 'CSV 文件',
    [`${p}_import_submit`]: '导入',
    [`${p}_import_ready`]: '全部 {rows} 行都可以导入。',
    [`${p}_import_problems`]: '共 {problems} 个问题。尚未导入任何内容：请修改文件后重新选择。',
    [`${p}_import_problem`]: '第 {line} 行，{column}：{message}',
    [`${p}_imported`]: `已导入 {count} 个${z}。`,
    [`${p}_import_missing_column`]: '文件的表头没有 {column} 列。',
    [`${p}_import_empty`]: '文件表头下没有任何行。',
    [`${p}_import_too_many_rows`]: '每个文件最多 {max} 行。',
    [`${p}_import_malformed_row`]: '无法按 CSV 读取这一行。',
    [`validation_${p}_import_too_large`]: '文件太大：请拆分成较小的文件。',
  }
  const fields = fieldMessages(spec)
  return {
    en: `${JSON.stringify({ ...en, ...fields.en }, null, 2)}\n`,
    zh: `${JSON.stringify({ ...zh, ...fields.zh }, null, 2)}\n`,
  }
}

/** Every key the app's catalogues hold, to check none is taken already. */
export function messageKeysOf(spec: NewAppSpec): string[] {
  return Object.keys(JSON.parse(messageCatalogues(spec).en) as object).filter((key) => key !== '$schema')
}
